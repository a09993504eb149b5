#include "writer/atomic_replace_metadata.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "os/error_messages.hpp"
#include "os/sys.hpp"

namespace sluice::detail {
namespace {

constexpr const char* access_acl = "system.posix_acl_access";
constexpr const char* capability = "security.capability";
// What vouches for the old content (the kernel's integrity measurement and
// its protection), which the new content would fail.
constexpr const char* integrity[] = {"security.ima", "security.evm"};

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

// Where the old file's attributes are read: the path of its O_PATH
// descriptor under /proc/self/fd, which listxattr and getxattr follow to
// that very file, or, where /proc is missing, its own path.
struct attribute_source {
  std::string path;
  bool by_name = false;  // its own path: what is there must be checked afterwards
};

std::optional<std::string> list_of(const std::string& path) {
  return fetched([&](char* names, std::size_t size) {
    return sys().list_attributes(path.c_str(), names, size);
  });
}

// The names of the old file's extended attributes, and where they were
// found; none where the filesystem has no extended attributes at all.
std::vector<std::string> attribute_names(const file& temporary, const resolved_target& old,
                                         attribute_source& source) {
  source.path = "/proc/self/fd/" + std::to_string(old.existing.native_handle());
  auto list = list_of(source.path);
  if (!list && errno == ENOENT) {  // no /proc
    source = {old.path, true};
    list = list_of(source.path);
  }
  if (!list) {
    int error = errno;
    if (error == ENOTSUP || error == ENOSYS) return {};
    cannot(error, temporary, "list the extended attributes of '" + old.path + "'");
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
  if (sys().set_attribute(temporary.native_handle(), name.c_str(), value.data(), value.size()) == 0)
    return;
  int error = errno;
  cannot(error, temporary,
         "give the new file the extended attribute '" + name + "' of the file it replaces");
}

// Read by path (no /proc): what is at the path must still be the file whose
// owner and mode were taken, or the attributes may be another file's.
void check_unchanged(const file& temporary, const resolved_target& old) {
  file_facts now;
  if (sys().path_facts(old.path.c_str(), &now) != 0) {
    int error = errno;
    cannot(error, temporary, "stat '" + old.path + "' after reading its extended attributes");
  }
  const file_facts& was = *old.status;
  if (now.device == was.device && now.inode == was.inode && now.owner == was.owner &&
      now.type == was.type && now.mode == was.mode)
    return;
  throw std::system_error(EAGAIN, std::generic_category(),
                          describe("open", temporary.path()) + ": '" + old.path +
                              "' changed while its extended attributes were being read; "
                              "nothing was replaced");
}

// Copies the old file's extended attributes to `temporary` but those
// copy_metadata leaves out; returns the names the old file has, and keeps
// security.capability's value in `kept`.
std::vector<std::string> copy_attributes(file& temporary, const resolved_target& old,
                                         kept_privileges& kept) {
  attribute_source source;
  std::vector<std::string> names = attribute_names(temporary, old, source);
  for (const std::string& name : names) {
    if (std::find(std::begin(integrity), std::end(integrity), name) != std::end(integrity))
      continue;
    auto value = fetched([&](char* bytes, std::size_t size) {
      return sys().get_attribute(source.path.c_str(), name.c_str(), bytes, size);
    });
    if (!value) {
      int error = errno;
      if (error == ENODATA) continue;  // removed since it was listed
      cannot(error, temporary, "read the extended attribute '" + name + "' of '" + old.path + "'");
    }
    if (name == capability)
      kept.capability = std::move(value);  // given after the last write
    else
      set_attribute(temporary, name, *value);
  }
  if (source.by_name) check_unchanged(temporary, old);
  return names;
}

void take_owner(file& temporary, const file_facts& old) {
  file_facts now;
  if (sys().facts(temporary.native_handle(), &now) != 0)
    throw_error(errno, "stat", temporary.path());
  if (now.owner == old.owner && now.group == old.group) return;
  if (sys().set_owner(temporary.native_handle(), old.owner, old.group) == 0) return;
  int error = errno;
  cannot(error, temporary,
         "give the new file the owner and group of the file it replaces (uid " +
             std::to_string(old.owner) + ", gid " + std::to_string(old.group) + ")");
}

// An access ACL the temporary inherited (its directory has a default ACL)
// that the old file did not have would grant what the old file did not.
void drop_inherited_acl(file& temporary) {
  if (sys().remove_attribute(temporary.native_handle(), access_acl) == 0) return;
  int error = errno;
  if (error == ENODATA || error == ENOTSUP) return;
  cannot(
      error, temporary,
      std::string("drop the ACL the new file inherited from its directory (") + access_acl + ")");
}

void set_mode(file& temporary, mode_t mode) {
  if (sys().set_mode(temporary.native_handle(), mode) == 0) return;
  int error = errno;
  char octal[8];
  std::snprintf(octal, sizeof octal, "%04o", static_cast<unsigned>(mode));
  cannot(error, temporary,
         std::string("give the new file the mode of the file it replaces (") + octal + ")");
}

constexpr mode_t privileged_bits = S_ISUID | S_ISGID;

}  // namespace

creation creation_for(const std::string&, const resolved_target& old) {
  creation made;
  if (!old.status) return made;
  made.permissions = 0600;
  made.source = old.path;
  return made;
}

kept_privileges copy_metadata(file& temporary, const resolved_target& old) {
  kept_privileges kept;
  kept.mode = old.status->mode;
  take_owner(temporary, *old.status);
  std::vector<std::string> names = copy_attributes(temporary, old, kept);
  if (std::find(names.begin(), names.end(), access_acl) == names.end())
    drop_inherited_acl(temporary);
  set_mode(temporary, kept.mode & ~privileged_bits);
  return kept;
}

void restore_privileges(file& temporary, const kept_privileges& kept) {
  if (kept.capability) set_attribute(temporary, capability, *kept.capability);
  if (kept.mode & privileged_bits) set_mode(temporary, kept.mode);
}

}  // namespace sluice::detail
