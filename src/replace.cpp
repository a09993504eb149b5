#include "replace.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <random>
#include <system_error>

#include "directory.hpp"
#include "replace_target.hpp"
#include "sluice/detail/sys.hpp"
#include "sluice/error.hpp"
#include "transfer.hpp"

namespace sluice::detail {
namespace {

// A fresh candidate name for a named temporary.
std::string candidate_name(const std::filesystem::path& target) {
  thread_local std::mt19937_64 random{std::random_device{}()};
  char suffix[9];
  std::snprintf(suffix, sizeof suffix, "%08x", static_cast<unsigned>(random()));
  return (target.parent_path() / (temporary_prefix(target) + suffix)).native();
}

// Calls `attempt(name)` with fresh names while the name is taken (EEXIST);
// returns the name that worked, or calls `fail(errno, name)`, which throws,
// at the first other failure.
template <class Attempt, class Fail>
std::string with_fresh_name(const std::filesystem::path& target, Attempt attempt, Fail fail) {
  for (int tries = 0;; ++tries) {
    std::string name = candidate_name(target);
    if (attempt(name) == 0) return name;
    if (errno != EEXIST || tries == 100) fail(errno, name);
  }
}

// An unnamed temporary gets its name at install() by a link from
// /proc/self/fd, which a sandbox or chroot may lack: checked before any byte
// is accepted (one stat).
std::string self_path(int fd) { return "/proc/self/fd/" + std::to_string(fd); }

bool can_be_named(int fd) {
  struct stat st {};
  return sys().stat(self_path(fd).c_str(), &st) == 0;
}

bool unnamed_temporaries_unsupported(int error) {
  return error == EOPNOTSUPP || error == EISDIR || error == EINVAL;
}

// Creates the temporary beside `destination` with `permissions`: unnamed
// if possible; `name` is set if it is not. Throws naming `given`.
int create_temporary(const std::string& given, const std::string& destination,
                     const std::string& directory, int flags, mode_t permissions,
                     std::string& name) {
  int fd = restart_interrupted(
      [&] { return sys().openat(AT_FDCWD, directory.c_str(), O_TMPFILE | flags, permissions); });
  if (fd >= 0 && can_be_named(fd)) return fd;
  bool direct = (flags & O_DIRECT) != 0;
  if (fd >= 0)
    sys().close(fd);
  else if (!unnamed_temporaries_unsupported(errno))
    throw_open_failure(errno, given, direct);
  name = with_fresh_name(
      destination,
      [&](const std::string& candidate) {
        fd = restart_interrupted([&] {
          return sys().openat(AT_FDCWD, candidate.c_str(), O_CREAT | O_EXCL | flags, permissions);
        });
        return fd < 0 ? -1 : 0;
      },
      [&](int error, const std::string& candidate) {
        throw_open_failure(error, candidate, direct);
      });
  return fd;
}

}  // namespace

std::string temporary_prefix(const std::filesystem::path& target) {
  // With the 8 hex digits after it, at most NAME_MAX bytes: a long name is cut.
  constexpr std::string_view before = ".", after = ".sluice-tmp-";
  constexpr std::size_t name_max = 255, room = name_max - before.size() - after.size() - 8;
  std::string prefix(before);
  prefix.append(target.filename().native(), 0, room);
  prefix += after;
  return prefix;
}

temporary open_temporary(const std::filesystem::path& target, bool direct) {
  // Every later step names the directory of open time, whatever chdir() does.
  std::filesystem::path given = absolute_path(target);
  replace_target where = find_target(given);
  std::string directory_path = directory_of(where.path);
  temporary made{{}, {{}, where.path, open_directory_to_sync(given, directory_path), {}}};
  check_directory(given, where, made.rest.directory);
  // Created private when it replaces a file: it gets that file's mode once
  // it has its owner and ACL, never wider than the old file meanwhile.
  mode_t permissions = where.existing ? 0600 : 0666;
  int flags = O_RDWR | O_CLOEXEC | (direct ? O_DIRECT : 0);
  int fd = create_temporary(given.native(), where.path, directory_path, flags, permissions,
                            made.rest.name);
  made.target = file(fd, given.native());
  if (!where.existing) return made;
  try {
    made.rest.kept = copy_metadata(made.target, where.path, *where.existing);
  } catch (...) {
    discard(made.target, made.rest);
    throw;
  }
  return made;
}

void install(file& target, replacement& rest) {
  restore_privileges(target, rest.kept);
  target.sync_all();
  if (rest.name.empty()) {
    std::string self = self_path(target.native_handle());
    rest.name = with_fresh_name(
        rest.destination,
        [&](const std::string& candidate) {
          return sys().linkat(AT_FDCWD, self.c_str(), AT_FDCWD, candidate.c_str(),
                              AT_SYMLINK_FOLLOW);
        },
        [](int error, const std::string& candidate) { throw_error(error, "link", candidate); });
  }
  target.close();  // before the rename: a failure here leaves the old content in place
  if (sys().renameat(AT_FDCWD, rest.name.c_str(), AT_FDCWD, rest.destination.c_str()) != 0)
    throw std::system_error(errno, std::generic_category(),
                            describe("rename", rest.name) + " over '" + rest.destination + "'");
  rest.name.clear();  // it is the destination's now
  if (sys().fsync(rest.directory.native_handle()) != 0)
    throw std::system_error(errno, std::generic_category(),
                            describe("fsync directory", rest.directory.path()) +
                                " after the rename over '" + rest.destination +
                                "', which is done but may not survive a power loss");
  rest.directory.close();
}

void discard(file& target, replacement& rest) noexcept {
  if (target.is_open()) sys().close(target.release());
  if (rest.directory.is_open()) sys().close(rest.directory.release());
  if (!rest.name.empty()) sys().unlinkat(AT_FDCWD, rest.name.c_str(), 0);
}

}  // namespace sluice::detail
