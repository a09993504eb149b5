#include "writer/atomic_replace.hpp"

#include <cerrno>
#include <cstdio>
#include <random>
#include <system_error>
#include <utility>
#include <vector>

#include "os/directory.hpp"
#include "os/error_messages.hpp"
#include "os/path_text.hpp"
#include "os/sys.hpp"
#include "os/transfer.hpp"
#include "writer/atomic_replace_steps.hpp"
#include "writer/resolve_target.hpp"

namespace sluice::detail {
namespace {

// A fresh candidate name for a named temporary replacing `destination`.
std::string candidate_name(const std::string& destination) {
  thread_local std::mt19937_64 random{std::random_device{}()};
  char suffix[9];
  std::snprintf(suffix, sizeof suffix, "%08x", static_cast<unsigned>(random()));
  return temporary_prefix(destination) + suffix;
}

// Calls `attempt(name)` with fresh names while the name is taken (EEXIST);
// returns the name that worked, or calls `fail(errno, name)`, which throws,
// at the first other failure.
template <class Attempt, class Fail>
std::string with_fresh_name(const std::string& destination, Attempt attempt, Fail fail) {
  for (int tries = 0;; ++tries) {
    std::string name = candidate_name(destination);
    if (attempt(name) == 0) return name;
    if (errno != EEXIST || tries == 100) fail(errno, name);
  }
}

// An unnamed temporary gets its name at install() by a link (from
// /proc/self/fd on Linux, which a sandbox or chroot may lack): checked
// before any byte is accepted (one stat).
bool can_be_named(detail::handle fd) { return sys().can_link_unnamed(fd) == 0; }

// O_TMPFILE refused: by the filesystem (EOPNOTSUPP), or by a kernel older
// than it (EISDIR, or EINVAL for the unknown flag).
bool unnamed_temporaries_unsupported(int error) {
  return error == EOPNOTSUPP || error == EISDIR || error == EINVAL;
}

// "'<directory><separator><name>'", with the platform's separator, for messages.
std::string shown_in(const replacement& rest, const std::string& name) {
  std::string shown = "'";
  shown += path_text(std::filesystem::path(rest.directory.path()) / name);
  shown += '\'';
  return shown;
}

// Windows: the parts of the security descriptor `with` carries that a
// process may not be allowed to give a file (EPERM), each with the
// privilege it needs: "its owner or group (...), SACL (...) or integrity
// label (...)", the SACL and label only if carried.
std::string privileged_parts(const creation& with) {
  using namespace security_part;
  std::vector<std::string> named{"owner or group (another user's needs SeRestorePrivilege)"};
  if (with.parts & sacl) named.emplace_back("SACL (needs SeSecurityPrivilege)");
  if (with.parts & label)
    named.emplace_back("integrity label (one above its own needs SeRelabelPrivilege)");
  std::string text = "its " + named.front();
  for (std::size_t i = 1; i < named.size(); ++i)
    text += (i + 1 == named.size() ? " or " : ", ") + named[i];
  return text;
}

[[noreturn]] void cannot_create(int error, const std::string& given, const std::string& what,
                                const creation& with) {
  std::string why;
  if (!with.security.empty() && error == EPERM)
    why = " with the security of '" + with.source +
          "', which this process may not give a file: " + privileged_parts(with);
  throw std::system_error(
      error, std::generic_category(),
      describe("open", given) + ": cannot create the temporary file " + what + why);
}

handle open_in(const replacement& rest, const char* name, open_request how, const creation& with,
               bool direct) {
  how.mode = open_request::access::read_write;
  how.permissions = with.permissions;
  how.security = with.security.empty() ? nullptr : with.security.data();
  how.attributes = with.attributes;
  temporary_steps::ask_at_creation(how, direct);
  return restart_interrupted([&] { return sys().open(rest.directory.native_handle(), name, how); });
}

// Creates the temporary in `rest.directory` as `with` says: unnamed if
// possible; `rest.name` is set if it is not. Throws naming `given`.
handle create_temporary(const std::string& given, replacement& rest, const creation& with,
                        bool direct) {
  detail::handle fd = open_in(rest, ".", {.unnamed_temporary = true}, with, direct);
  if (fd != detail::no_handle() && can_be_named(fd)) return fd;
  if (fd != detail::no_handle()) {
    sys().close(fd);
  } else if (int error = errno; !unnamed_temporaries_unsupported(error)) {
    cannot_create(error, given, "in '" + rest.directory.path() + "' (O_TMPFILE)", with);
  }
  rest.name = with_fresh_name(
      rest.destination,
      [&](const std::string& candidate) {
        fd = open_in(rest, candidate.c_str(), {.create = true, .exclusive = true}, with, direct);
        return fd == detail::no_handle() ? -1 : 0;
      },
      [&](int error, const std::string& candidate) {
        cannot_create(error, given, shown_in(rest, candidate), with);
      });
  return fd;
}

// Links the unnamed temporary into the directory under a fresh name.
void name_temporary(file& target, replacement& rest) {
  rest.name = with_fresh_name(
      rest.destination,
      [&](const std::string& candidate) {
        return sys().link_unnamed(target.native_handle(), rest.directory.native_handle(),
                                  candidate.c_str());
      },
      [&](int error, const std::string& candidate) {
        throw std::system_error(error, std::generic_category(),
                                describe("link", target.path()) +
                                    ": cannot give the temporary file the name " +
                                    shown_in(rest, candidate));
      });
}

// The rename of the temporary over the destination (temporary_steps).
void rename_over(const std::string& given, file& target, replacement& rest) {
  if (temporary_steps::rename_over(target, rest) == 0) return;
  int error = errno;
  rest.rename_uncertain = error != EACCES;
  throw std::system_error(error, std::generic_category(),
                          describe("rename", given) + ": cannot rename the temporary file " +
                              shown_in(rest, rest.name) + " over '" + rest.destination_path + "'");
}

void sync_after_rename(const std::string& given, replacement& rest) {
  if (sys().sync_directory(rest.directory.native_handle()) == 0) return;
  int error = errno;
  throw std::system_error(error, std::generic_category(),
                          describe("fsync", given) + ": the rename over '" + rest.destination_path +
                              "' is done, but its directory '" + rest.directory.path() +
                              "' could not be synced, so it may not survive a power loss");
}

void close_directory(const std::string& given, replacement& rest) {
  if (sys().close(rest.directory.release()) == 0) return;
  int error = errno;
  throw std::system_error(
      error, std::generic_category(),
      describe("close", given) + ": cannot close its directory '" + rest.directory.path() + "'");
}

}  // namespace

std::string temporary_prefix(const std::filesystem::path& target) {
  // With the 8 hex digits after it, at most NAME_MAX bytes: a long name is cut.
  constexpr std::string_view before = ".", after = ".sluice-tmp-";
  constexpr std::size_t name_max = 255, room = name_max - before.size() - after.size() - 8;
  std::string prefix(before);
  prefix.append(path_text(target.filename()), 0, room);
  prefix += after;
  return prefix;
}

temporary open_temporary(const std::filesystem::path& target, bool direct) {
  // Every later step names the directory of open time, whatever chdir() does.
  std::filesystem::path given = absolute_path(target);
  std::string shown = path_text(given);  // the temporary's path(), made before it exists
  resolved_target where = find_target(given, target_use::replace);
  temporary made{{},
                 {open_directory_to_sync(given, where.directory), {}, where.name, where.path, {}}};
  check_directory(given, where, made.rest.directory);
  // Created private when it replaces a file (POSIX: it gets that file's
  // mode once it has its owner and ACL; Windows: created with its security
  // descriptor), never wider than the old file meanwhile.
  creation with = creation_for(path_text(given), where);
  detail::handle fd = create_temporary(path_text(given), made.rest, with, direct);
  made.target = file(fd, std::move(shown));
  try {
    temporary_steps::after_creation(made.target, direct);
    if (where.status) made.rest.kept = copy_metadata(made.target, where);
  } catch (...) {
    discard(made.target, made.rest);
    throw;
  }
  return made;
}

void install(file& target, replacement& rest) {
  restore_privileges(target, rest.kept);
  target.sync_all();
  if (rest.name.empty()) name_temporary(target, rest);
  rename_over(target.path(), target, rest);
  rest.name.clear();  // it is the destination's now
  temporary_steps::after_rename(target, rest);
  sync_after_rename(target.path(), rest);
  close_directory(target.path(), rest);
}

void discard(file& target, replacement& rest) noexcept {
  if (temporary_steps::delete_held(target, rest)) rest.name.clear();
  if (target.is_open()) sys().close(target.release());
  if (!rest.name.empty() && rest.directory.is_open())
    sys().remove(rest.directory.native_handle(), rest.name.c_str());
  if (rest.directory.is_open()) sys().close(rest.directory.release());
}

}  // namespace sluice::detail
