// What a replacement keeps of the file it replaces: owner, group, extended
// attributes (the POSIX ACL among them) and the exact mode, given to the
// temporary before it takes any byte. Used by writer_options::atomic_replace.
#pragma once

#include <sys/stat.h>

#include <optional>
#include <string>

#include "sluice/file.hpp"

namespace sluice::detail {

// What a write to the temporary may take away and install() gives back
// after the last one: the kernel clears the setuid and setgid bits when the
// writer lacks CAP_FSETID, and drops security.capability on every write.
struct kept_privileges {
  mode_t mode = 0;                        // set again if it has S_ISUID or S_ISGID
  std::optional<std::string> capability;  // security.capability, if the old file had it
};

// Gives `temporary` (just created, mode 0600) the metadata of the file at
// `old_path`, whose lstat is `old`, in the order that keeps each step from
// undoing another: fchown to its owner and group when they differ (a chown
// clears setuid/setgid bits and capabilities); every extended attribute
// copied (llistxattr and lgetxattr on the old file, fsetxattr), which copies
// an access ACL; an access ACL the temporary inherited from its directory's
// default ACL removed if the old file had none; fchmod to the exact mode
// (07777, no umask), which keeps an ACL's mask equal to the old group bits.
// Costs an fstat, a llistxattr (two and a lgetxattr pair per attribute when
// there are some), an fsetxattr per attribute, an fremovexattr without an
// ACL, an fchmod. Throws std::system_error naming `temporary.path()`: EPERM
// when the process may not give the file that owner or group, the errno of
// any attribute that cannot be read or set, naming it.
kept_privileges copy_metadata(file& temporary, const std::string& old_path, const struct stat& old);

// After the last write: the setuid/setgid bits and security.capability the
// old file had, set again (an fchmod, an fsetxattr; nothing for a file
// without them). Throws like copy_metadata.
void restore_privileges(file& temporary, const kept_privileges& kept);

}  // namespace sluice::detail
