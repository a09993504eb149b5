#include "replace_metadata.hpp"

#include <sys/xattr.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "sluice/detail/sys.hpp"
#include "sluice/error.hpp"

namespace sluice::detail {
namespace {

constexpr const char* access_acl = "system.posix_acl_access";
constexpr const char* capability = "security.capability";

// "sluice: open '<path>': cannot <what>: <strerror>"
[[noreturn]] void cannot(int error, const file& temporary, const std::string& what) {
  throw std::system_error(error, std::generic_category(),
                          describe("open", temporary.path()) + ": cannot " + what);
}

// What `fetch(buffer, size)`, a call with listxattr's contract, gives: its
// size asked first, then the bytes; again if they grew meanwhile (ERANGE).
// Nothing, with errno set, on failure.
template <class Fetch>
std::optional<std::string> fetched(Fetch fetch) {
  for (;;) {
    ssize_t size = fetch(nullptr, 0);
    if (size < 0) return std::nullopt;
    if (size == 0) return std::string();
    std::string bytes(static_cast<std::size_t>(size), '\0');
    ssize_t got = fetch(bytes.data(), bytes.size());
    if (got >= 0) return bytes.substr(0, static_cast<std::size_t>(got));
    if (errno != ERANGE) return std::nullopt;
  }
}

// The names of `path`'s extended attributes; none where the filesystem has
// no extended attributes at all.
std::vector<std::string> attribute_names(const file& temporary, const std::string& path) {
  auto list = fetched(
      [&](char* names, std::size_t size) { return sys().llistxattr(path.c_str(), names, size); });
  if (!list) {
    int error = errno;
    if (error == ENOTSUP || error == ENOSYS) return {};
    cannot(error, temporary, "list the extended attributes of '" + path + "'");
  }
  std::vector<std::string> names;
  for (std::size_t at = 0; at < list->size();) {
    std::size_t end = std::min(list->find('\0', at), list->size());
    if (end > at) names.push_back(list->substr(at, end - at));
    at = end + 1;
  }
  return names;
}

void set_attribute(file& temporary, const std::string& name, const std::string& value) {
  if (sys().fsetxattr(temporary.native_handle(), name.c_str(), value.data(), value.size(), 0) == 0)
    return;
  int error = errno;
  cannot(error, temporary,
         "give the new file the extended attribute '" + name + "' of the file it replaces");
}

// Copies every extended attribute of `old_path` to `temporary`; returns
// their names, and keeps security.capability's value in `kept`.
std::vector<std::string> copy_attributes(file& temporary, const std::string& old_path,
                                         kept_privileges& kept) {
  std::vector<std::string> names = attribute_names(temporary, old_path);
  for (const std::string& name : names) {
    auto value = fetched([&](char* bytes, std::size_t size) {
      return sys().lgetxattr(old_path.c_str(), name.c_str(), bytes, size);
    });
    if (!value) {
      int error = errno;
      if (error == ENODATA) continue;  // removed since it was listed
      cannot(error, temporary, "read the extended attribute '" + name + "' of '" + old_path + "'");
    }
    set_attribute(temporary, name, *value);
    if (name == capability) kept.capability = std::move(value);
  }
  return names;
}

void take_owner(file& temporary, const struct stat& old) {
  struct stat now {};
  if (sys().fstat(temporary.native_handle(), &now) != 0)
    throw_error(errno, "stat", temporary.path());
  if (now.st_uid == old.st_uid && now.st_gid == old.st_gid) return;
  if (sys().fchown(temporary.native_handle(), old.st_uid, old.st_gid) == 0) return;
  int error = errno;
  cannot(error, temporary,
         "give the new file the owner and group of the file it replaces (uid " +
             std::to_string(old.st_uid) + ", gid " + std::to_string(old.st_gid) + ")");
}

// An access ACL the temporary inherited (its directory has a default ACL)
// that the old file did not have would grant what the old file did not.
void drop_inherited_acl(file& temporary) {
  if (sys().fremovexattr(temporary.native_handle(), access_acl) == 0) return;
  int error = errno;
  if (error == ENODATA || error == ENOTSUP) return;
  cannot(
      error, temporary,
      std::string("drop the ACL the new file inherited from its directory (") + access_acl + ")");
}

void set_mode(file& temporary, mode_t mode) {
  if (sys().fchmod(temporary.native_handle(), mode) == 0) return;
  int error = errno;
  char octal[8];
  std::snprintf(octal, sizeof octal, "%04o", static_cast<unsigned>(mode));
  cannot(error, temporary,
         std::string("give the new file the mode of the file it replaces (") + octal + ")");
}

}  // namespace

kept_privileges copy_metadata(file& temporary, const std::string& old_path,
                              const struct stat& old) {
  kept_privileges kept;
  kept.mode = old.st_mode & 07777;
  take_owner(temporary, old);
  std::vector<std::string> names = copy_attributes(temporary, old_path, kept);
  if (std::find(names.begin(), names.end(), access_acl) == names.end())
    drop_inherited_acl(temporary);
  set_mode(temporary, kept.mode);
  return kept;
}

void restore_privileges(file& temporary, const kept_privileges& kept) {
  if (kept.capability) set_attribute(temporary, capability, *kept.capability);
  if (kept.mode & (S_ISUID | S_ISGID)) set_mode(temporary, kept.mode);
}

}  // namespace sluice::detail
