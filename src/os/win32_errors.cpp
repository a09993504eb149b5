// GetLastError's codes as errno values: the table the Win32 backend reports
// every failure through.
#include "os/win32_errors.hpp"

#include <windows.h>

#include <cerrno>

namespace sluice::detail::win32 {
namespace {

struct mapping {
  DWORD code;
  int errno_value;
};

// ERROR_INVALID_LABEL (1299), which MinGW-w64's headers lack: an integrity
// label above the process's own given to a file.
constexpr DWORD invalid_label = 1299;

// Sharing violations are EACCES, as a Linux open refused by permissions;
// an owner, group or integrity label this process may not give a file, or
// a privilege it lacks (a SACL set without SeSecurityPrivilege), is EPERM,
// as fchown's; a security descriptor, ACL or SID that is not well formed
// is EINVAL, as setxattr's for a malformed POSIX ACL; a file on a
// filesystem that keeps no security (FAT) is EOPNOTSUPP, as an ACL asked
// of a filesystem without ACLs;
// a range another handle locked (LockFileEx) is EWOULDBLOCK, as flock's
// LOCK_NB.
constexpr mapping table[] = {
    {ERROR_FILE_NOT_FOUND, ENOENT},
    {ERROR_PATH_NOT_FOUND, ENOENT},
    {ERROR_INVALID_DRIVE, ENOENT},
    {ERROR_BAD_NETPATH, ENOENT},
    {ERROR_BAD_PATHNAME, ENOENT},
    {ERROR_INVALID_NAME, ENOENT},
    {ERROR_DIRECTORY, ENOTDIR},
    {ERROR_FILE_EXISTS, EEXIST},
    {ERROR_ALREADY_EXISTS, EEXIST},
    {ERROR_ACCESS_DENIED, EACCES},
    {ERROR_SHARING_VIOLATION, EACCES},
    {ERROR_WRITE_PROTECT, EROFS},
    {ERROR_LOCK_VIOLATION, EWOULDBLOCK},
    {ERROR_DISK_FULL, ENOSPC},
    {ERROR_HANDLE_DISK_FULL, ENOSPC},
    {ERROR_FILE_TOO_LARGE, EFBIG},
    {ERROR_NOT_SUPPORTED, EOPNOTSUPP},
    {ERROR_INVALID_FUNCTION, EOPNOTSUPP},
    {ERROR_CALL_NOT_IMPLEMENTED, ENOSYS},
    {ERROR_BROKEN_PIPE, EPIPE},
    {ERROR_NO_DATA, EPIPE},
    {ERROR_NOT_ENOUGH_MEMORY, ENOMEM},
    {ERROR_OUTOFMEMORY, ENOMEM},
    {ERROR_INVALID_HANDLE, EBADF},
    {ERROR_INVALID_PARAMETER, EINVAL},
    {ERROR_NEGATIVE_SEEK, EINVAL},
    {ERROR_FILENAME_EXCED_RANGE, ENAMETOOLONG},
    {ERROR_DIR_NOT_EMPTY, ENOTEMPTY},
    {ERROR_NOT_SAME_DEVICE, EXDEV},
    {ERROR_TOO_MANY_OPEN_FILES, EMFILE},
    {ERROR_CANT_RESOLVE_FILENAME, ELOOP},
    {ERROR_OPERATION_ABORTED, EINTR},
    {ERROR_INVALID_OWNER, EPERM},
    {ERROR_INVALID_PRIMARY_GROUP, EPERM},
    {ERROR_PRIVILEGE_NOT_HELD, EPERM},
    {invalid_label, EPERM},
    {ERROR_INVALID_SECURITY_DESCR, EINVAL},
    {ERROR_BAD_DESCRIPTOR_FORMAT, EINVAL},
    {ERROR_INVALID_ACL, EINVAL},
    {ERROR_BAD_INHERITANCE_ACL, EINVAL},
    {ERROR_INVALID_SID, EINVAL},
    {ERROR_UNKNOWN_REVISION, EINVAL},
    {ERROR_REVISION_MISMATCH, EINVAL},
    {ERROR_NO_SECURITY_ON_OBJECT, EOPNOTSUPP},
};

}  // namespace

int errno_of(std::uint32_t code) noexcept {
  for (const mapping& entry : table)
    if (entry.code == code) return entry.errno_value;
  return EIO;
}

int fail(std::uint32_t code) noexcept {
  errno = errno_of(code);
  return -1;
}

int fail_last() noexcept { return fail(::GetLastError()); }

int refuse(int errno_value) noexcept {
  errno = errno_value;
  return -1;
}

}  // namespace sluice::detail::win32
