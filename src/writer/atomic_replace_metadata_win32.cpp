// creation_for, copy_metadata and restore_privileges on Windows: the
// temporary is created carrying the old file's security descriptor (owner,
// group, DACL with its protected or inherited state; SACL and integrity
// label where this process may read them) and attributes, so that it is
// never readable by more than that file; the read-only attribute is given
// after the last write. There are no setuid bits or capabilities to hold
// back. docs/platforms.md says what each part maps to.
#include <windows.h>

#include <cerrno>
#include <string>
#include <system_error>

#include "os/error_messages.hpp"
#include "os/sys.hpp"
#include "writer/atomic_replace_metadata.hpp"

namespace sluice::detail {
namespace {

[[noreturn]] void cannot(int error, const std::string& given, const std::string& what) {
  throw std::system_error(error, std::generic_category(),
                          describe("open", given) + ": cannot " + what);
}

// The part of the descriptor read_security could not read, by what it did
// read (`parts`): the SACL and label once owner, group and DACL are in.
std::string unread_part(unsigned parts) {
  using namespace security_part;
  if ((parts & (owner | group | dacl)) == (owner | group | dacl)) return "SACL and integrity label";
  return "security descriptor (owner, group and ACL)";
}

// The old file's descriptor: its size asked first, then the bytes; again
// if it grew meanwhile. `*parts` gets what is in it.
std::string security_of(const std::string& given, const resolved_target& old, unsigned* parts) {
  for (;;) {
    *parts = 0;
    ssize_t size = sys().read_security(old.existing.native_handle(), nullptr, 0, parts);
    if (size < 0) break;
    std::string bytes(static_cast<std::size_t>(size), '\0');
    ssize_t got =
        sys().read_security(old.existing.native_handle(), bytes.data(), bytes.size(), parts);
    if (got < 0) break;
    if (static_cast<std::size_t>(got) <= bytes.size()) return bytes;
  }
  int error = errno;
  cannot(
      error, given,
      "read the " + unread_part(*parts) + " of '" + old.path + "', which the new file must have");
}

// The attributes a replacement keeps: those CreateFileW gives a new file,
// and those set afterwards (not content-indexed; read-only, at the end).
// Archive is always set, as on any file whose content changed; offline
// (the data is elsewhere), compressed, sparse and the like describe the
// old file's storage, not a property of the file to keep.
constexpr std::uint32_t at_creation = FILE_ATTRIBUTE_HIDDEN | FILE_ATTRIBUTE_SYSTEM |
                                      FILE_ATTRIBUTE_TEMPORARY | FILE_ATTRIBUTE_ENCRYPTED;
constexpr std::uint32_t kept_attributes =
    FILE_ATTRIBUTE_HIDDEN | FILE_ATTRIBUTE_SYSTEM | FILE_ATTRIBUTE_TEMPORARY |
    FILE_ATTRIBUTE_NOT_CONTENT_INDEXED | FILE_ATTRIBUTE_READONLY;

// What set_file_attributes gives the temporary: `wanted`, archive included.
void set_attributes(file& temporary, std::uint32_t wanted, const std::string& what) {
  if (sys().set_file_attributes(temporary.native_handle(), wanted | FILE_ATTRIBUTE_ARCHIVE) == 0)
    return;
  int error = errno;
  throw std::system_error(error, std::generic_category(),
                          describe("open", temporary.path()) + ": cannot give the new file " +
                              what + " of the file it replaces");
}

}  // namespace

creation creation_for(const std::string& given, const resolved_target& old) {
  creation made;
  if (!old.status) return made;
  made.security = security_of(given, old, &made.parts);
  made.attributes = (old.status->attributes & at_creation) | FILE_ATTRIBUTE_ARCHIVE;
  made.source = old.path;
  return made;
}

kept_privileges copy_metadata(file& temporary, const resolved_target& old) {
  std::uint32_t wanted = old.status->attributes & kept_attributes;
  if (wanted & ~(at_creation | FILE_ATTRIBUTE_READONLY))
    set_attributes(temporary, wanted & ~FILE_ATTRIBUTE_READONLY, "the attributes");
  kept_privileges kept;
  if (wanted & FILE_ATTRIBUTE_READONLY) kept.attributes = wanted;
  return kept;
}

void restore_privileges(file& temporary, const kept_privileges& kept) {
  if (kept.attributes != 0) set_attributes(temporary, kept.attributes, "the read-only attribute");
}

}  // namespace sluice::detail
