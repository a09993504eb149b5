// What a replacement keeps of the file it replaces: owner, group, extended
// attributes (the POSIX ACL among them) and the exact mode, given to the
// temporary before it takes any byte, but for the privileges a half-written
// file must not have, given after the last write. Used by
// writer_options::atomic_replace.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>

#include "sluice/file.hpp"
#include "writer/resolve_target.hpp"

namespace sluice::detail {

// What the temporary is created with, taken from the file it replaces
// before it exists, so that it is never readable by more than that file.
struct creation {
  unsigned permissions = 0666;  // POSIX: 0600 when it replaces a file (0666 minus the umask if not)
  std::string security;         // Windows: the old file's security descriptor; empty if none
  unsigned parts = 0;           // Windows: what is in it (security_part bits, os/sys.hpp)
  std::uint32_t attributes = 0;  // Windows: its attributes but read-only (FILE_ATTRIBUTE_*)
  std::string source;            // the old file's path, for messages; empty if none
};

// What the temporary gets only after the last write: the setuid and setgid
// bits and security.capability, which would make a half-written file a
// privileged program (and which the kernel drops on writes anyway); on
// Windows, the read-only attribute, which would refuse the writes.
struct kept_privileges {
  mode_t mode = 0;                        // the exact mode, set if it has S_ISUID or S_ISGID
  std::optional<std::string> capability;  // security.capability, if the old file had it
  std::uint32_t attributes = 0;           // Windows: the old file's attributes, if read-only
};

// What the temporary replacing `old` (find_target's, or nothing there) is
// created with. POSIX: mode 0600 for an existing file (copy_metadata gives
// the rest), nothing read. Windows: its security descriptor (read_security:
// owner, group, DACL with its protected or inherited state, and the SACL
// and integrity label where this process may read them) and its
// attributes, so that it exists with them from the start; read-only is
// left for restore_privileges. Throws std::system_error naming `given`
// when the descriptor cannot be read (then nothing was created).
creation creation_for(const std::string& given, const resolved_target& old);

// Gives `temporary` (just created, mode 0600) the metadata of `old`, the
// existing file find_target resolved (its O_PATH descriptor and fstat), in
// the order that keeps each step from undoing another: fchown to its owner
// and group when they differ (a chown clears setuid/setgid bits and
// capabilities); every extended attribute copied but security.capability
// (kept for restore_privileges) and security.ima and security.evm (which
// vouch for the old content, not the new), which copies an access ACL; an
// access ACL the temporary inherited from its directory's default ACL
// removed if the old file had none; fchmod to the exact mode (07777, no
// umask) less S_ISUID and S_ISGID, which keeps an ACL's mask equal to the
// old group bits.
//
// The attributes are read through /proc/self/fd/<n> of the O_PATH
// descriptor (listxattr, getxattr), so they are those of the file whose
// owner and mode were taken, whatever is at its name by now. Where /proc is
// missing they are read by path, then an lstat of the path must show the
// same device, inode, owner and mode, else EAGAIN ("changed while being
// read"). Attributes the caller cannot see (trusted.*, visible to root
// only) are not copied.
//
// Costs an fstat, a listxattr (two and a getxattr pair per attribute when
// there are some), an fsetxattr per attribute, an fremovexattr without an
// ACL, an fchmod (and an lstat without /proc). Throws std::system_error
// naming `temporary.path()`: EPERM when the process may not give the file
// that owner or group, the errno of any attribute that cannot be read or
// set, naming it.
//
// On Windows the temporary was created with the old file's security
// descriptor and attributes (creation_for): nothing more is set here; the
// old file's read-only attribute is kept for restore_privileges.
kept_privileges copy_metadata(file& temporary, const resolved_target& old);

// After the last write: security.capability and the setuid/setgid bits the
// old file had, set (an fsetxattr, an fchmod; nothing for a file without
// them); on Windows its read-only attribute (SetFileInformationByHandle, on
// the handle still open for writing). Throws like copy_metadata.
void restore_privileges(file& temporary, const kept_privileges& kept);

}  // namespace sluice::detail
