#include "replace.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <random>
#include <system_error>

#include "sluice/detail/sys.hpp"
#include "sluice/error.hpp"
#include "transfer.hpp"

namespace sluice::detail {
namespace {

std::filesystem::path directory_of(const std::filesystem::path& target) {
  auto directory = target.parent_path();
  return directory.empty() ? "." : directory;
}

// The permission bits the replacement gets: those of the file it replaces,
// so that a private file stays private, or a new file's. Only a regular file
// is replaced: a FIFO, device (/dev/stdout), socket or directory throws
// EINVAL.
mode_t permissions_for(const std::filesystem::path& target) {
  struct stat st {};
  if (sys().stat(target.c_str(), &st) != 0) return 0666;
  if (S_ISREG(st.st_mode)) return st.st_mode & 07777;
  throw std::system_error(EINVAL, std::generic_category(),
                          describe("open", target.native()) +
                              ": atomic_replace needs a regular file, and this is not one");
}

// A fresh candidate name for a named temporary.
std::string candidate_name(const std::filesystem::path& target) {
  thread_local std::mt19937_64 random{std::random_device{}()};
  char suffix[9];
  std::snprintf(suffix, sizeof suffix, "%08x", static_cast<unsigned>(random()));
  return (directory_of(target) / (temporary_prefix(target) + suffix)).native();
}

// Calls `attempt(name)` with fresh names while the name is taken (EEXIST);
// returns the name that worked, or throws the first other failure.
template <class Attempt>
std::string with_fresh_name(const std::filesystem::path& target, const char* operation,
                            Attempt attempt) {
  for (int tries = 0;; ++tries) {
    std::string name = candidate_name(target);
    if (attempt(name) == 0) return name;
    if (errno != EEXIST || tries == 100) throw_error(errno, operation, name);
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

temporary open_temporary(const std::filesystem::path& relative_target, bool direct) {
  // Every later step names the directory of open time, whatever chdir() does.
  std::filesystem::path target = std::filesystem::absolute(relative_target);
  mode_t permissions = permissions_for(target);
  int flags = O_RDWR | O_CLOEXEC | (direct ? O_DIRECT : 0);
  std::string directory = directory_of(target).native();
  int fd = restart_interrupted(
      [&] { return sys().openat(AT_FDCWD, directory.c_str(), O_TMPFILE | flags, permissions); });
  if (fd >= 0 && can_be_named(fd)) return {file(fd, target.native()), {}};
  if (fd >= 0)
    sys().close(fd);
  else if (!unnamed_temporaries_unsupported(errno))
    throw_error(errno, "open", target.native());
  std::string name = with_fresh_name(target, "open", [&](const std::string& candidate) {
    fd = restart_interrupted([&] {
      return sys().openat(AT_FDCWD, candidate.c_str(), O_CREAT | O_EXCL | flags, permissions);
    });
    return fd < 0 ? -1 : 0;
  });
  return {file(fd, target.native()), std::move(name)};
}

void install(file& target, std::string& name) {
  target.sync_all();
  if (name.empty()) {
    std::string self = self_path(target.native_handle());
    name = with_fresh_name(target.path(), "link", [&](const std::string& candidate) {
      return sys().linkat(AT_FDCWD, self.c_str(), AT_FDCWD, candidate.c_str(), AT_SYMLINK_FOLLOW);
    });
  }
  if (sys().renameat(AT_FDCWD, name.c_str(), AT_FDCWD, target.path().c_str()) != 0)
    throw std::system_error(errno, std::generic_category(),
                            describe("rename", name) + " over '" + target.path() + "'");
  name.clear();  // it is the target's now
  std::filesystem::path directory = directory_of(target.path());
  target.close();
  sync_directory(directory);
}

void discard(file& target, const std::string& name) noexcept {
  if (target.is_open()) sys().close(target.release());
  if (!name.empty()) sys().unlinkat(AT_FDCWD, name.c_str(), 0);
}

}  // namespace sluice::detail
