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

// Windows chooses unbuffered I/O (FILE_FLAG_NO_BUFFERING) only when a file
// is opened: the temporary is created with it. Elsewhere O_DIRECT is set
// once the temporary exists (use_direct_io).
// Windows renames and deletes the temporary through the handle that
// created it, with DELETE access asked then (rename_held, remove_held): a
// handle opened again by path would need DELETE from the temporary's DACL,
// the old file's, which may not grant it. Elsewhere the names are used
// (rename, remove), which the directory's permissions decide.
#ifdef _WIN32
constexpr bool direct_at_creation = true;
constexpr bool through_handle = true;
#else
constexpr bool direct_at_creation = false;
constexpr bool through_handle = false;
#endif

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
  how.direct = direct && direct_at_creation;
  how.deletable = through_handle;
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

// caching_mode::direct, set once the temporary exists: an EINVAL can only be
// the filesystem refusing O_DIRECT.
void use_direct_io(file& temporary) {
  if (sys().set_state(temporary.native_handle(), {.direct = true}) == 0) return;
  int error = errno;
  throw std::system_error(
      error, std::generic_category(),
      describe("open", temporary.path()) +
          (error == EINVAL ? ": the filesystem refuses O_DIRECT (caching::direct)"
                           : ": cannot set O_DIRECT on the temporary file"));
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

// The rename of the temporary over the destination: through `target`'s
// handle (still open) on Windows, by its name elsewhere.
void rename_over(const std::string& given, const file& target, replacement& rest) {
  detail::handle dir = rest.directory.native_handle();
  const char* destination = rest.destination.c_str();
  int renamed = through_handle ? sys().rename_held(target.native_handle(), dir, destination)
                               : sys().rename(dir, rest.name.c_str(), dir, destination);
  if (renamed == 0) return;
  int error = errno;
  rest.rename_uncertain = error != EACCES;
  throw std::system_error(error, std::generic_category(),
                          describe("rename", given) + ": cannot rename the temporary file " +
                              shown_in(rest, rest.name) + " over '" + rest.destination_path + "'");
}

// Windows: the temporary's handle, closed after the rename that went
// through it. Everything was flushed before the rename, so a failure loses
// nothing: the directory is still synced, and the error says that the new
// content is in place, and whether the rename may not survive a power loss.
void close_renamed(file& target, const replacement& rest) {
  try {
    target.close();
  } catch (const std::system_error& e) {
    bool synced = sys().sync_directory(rest.directory.native_handle()) == 0;
    throw std::system_error(
        e.code(), describe("close", target.path()) + ": the rename over '" + rest.destination_path +
                      "' is done, but the new file's handle could not be closed" +
                      (synced ? ""
                              : ", nor its directory synced: the rename may not survive "
                                "a power loss"));
  }
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
    if (direct && !direct_at_creation) use_direct_io(made.target);
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
  // Before the rename, where it goes by name: a failure here leaves the old
  // content in place. Through the handle (Windows), after it.
  if (!through_handle) target.close();
  rename_over(target.path(), target, rest);
  rest.name.clear();  // it is the destination's now
  if (through_handle) close_renamed(target, rest);
  sync_after_rename(target.path(), rest);
  close_directory(target.path(), rest);
}

void discard(file& target, replacement& rest) noexcept {
  bool held = through_handle && target.is_open() && !rest.name.empty() && !rest.rename_uncertain;
  if (held && sys().remove_held(target.native_handle()) == 0) rest.name.clear();
  if (target.is_open()) sys().close(target.release());
  if (!rest.name.empty() && rest.directory.is_open())
    sys().remove(rest.directory.native_handle(), rest.name.c_str());
  if (rest.directory.is_open()) sys().close(rest.directory.release());
}

}  // namespace sluice::detail
