// The Win32 backend's share of atomic_replace: the old file's security
// descriptor read for the new file to be created with, and the file
// attributes set on an open handle (docs/platforms.md, "Windows").
#include <windows.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "os/win32_errors.hpp"
#include "os/win32_handles.hpp"
#include "os/win32_sys.hpp"

namespace sluice::detail::win32 {
namespace {

// A handle of its own on the file `h` holds, with `access` (ReOpenFile: the
// same file, whatever is at its name by now); INVALID_HANDLE_VALUE with
// GetLastError on failure.
HANDLE reopened(handle h, DWORD access) {
  return ::ReOpenFile(h, access, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                      FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT);
}

// The parts `what` of the security descriptor of the file `h` holds,
// self-relative: empty, with GetLastError, on failure.
std::vector<char> descriptor_of(HANDLE h, SECURITY_INFORMATION what) {
  std::vector<char> bytes(256);
  for (;;) {
    DWORD needed = 0;
    if (::GetKernelObjectSecurity(h, what, bytes.data(), static_cast<DWORD>(bytes.size()), &needed))
      return bytes;
    if (::GetLastError() != ERROR_INSUFFICIENT_BUFFER) return {};
    bytes.resize(needed);
  }
}

// The parts `what` through a handle reopened with `access`: empty on
// failure, with GetLastError. The handle is closed however this leaves (a
// bad_alloc of the buffer included).
std::vector<char> read_through(handle h, DWORD access, SECURITY_INFORMATION what) {
  owned_handle own(reopened(h, access));
  if (!own) return {};
  return descriptor_of(own.get(), what);
}

// Whether reading the SACL failed for want of the privilege (an enabled
// SeSecurityPrivilege) or of access to it: then the label alone is read.
bool sacl_withheld(DWORD error) {
  return error == ERROR_PRIVILEGE_NOT_HELD || error == ERROR_ACCESS_DENIED;
}

// Whether reading the integrity label failed because the filesystem has
// none: then the new file has none either.
bool label_unsupported(DWORD error) {
  return error == ERROR_NOT_SUPPORTED || error == ERROR_INVALID_FUNCTION ||
         error == ERROR_INVALID_PARAMETER;
}

// The SACL a file's descriptor holds, with its protection: its audit
// entries where the process holds the privilege to read them, with its
// integrity label; else (sacl_withheld) the label alone, which READ_CONTROL
// reads; else (label_unsupported) nothing. Any other failure: false, with
// GetLastError. `*parts` gets what was read.
bool system_acl_of(handle h, std::vector<char>* system, unsigned* parts) {
  *system = read_through(h, READ_CONTROL | ACCESS_SYSTEM_SECURITY,
                         SACL_SECURITY_INFORMATION | LABEL_SECURITY_INFORMATION);
  if (!system->empty()) {
    *parts |= security_part::sacl | security_part::label;
    return true;
  }
  if (!sacl_withheld(::GetLastError())) return false;
  *system = read_through(h, READ_CONTROL, LABEL_SECURITY_INFORMATION);
  if (!system->empty()) {
    *parts |= security_part::label;
    return true;
  }
  return label_unsupported(::GetLastError());
}

// `into` (absolute) takes the owner, group and DACL of `from`, the DACL
// always protected (SE_DACL_PROTECTED), so that the system does not merge
// the directory's inheritable entries into it when the file is created;
// the entries `from` inherited stay in it as they are, with its
// auto-inherited state.
bool take_discretionary(SECURITY_DESCRIPTOR& into, PSECURITY_DESCRIPTOR from) {
  PSID owner = nullptr, group = nullptr;
  PACL dacl = nullptr;
  BOOL present = FALSE, defaulted = FALSE;
  SECURITY_DESCRIPTOR_CONTROL control = 0;
  DWORD revision = 0;
  constexpr SECURITY_DESCRIPTOR_CONTROL kept = SE_DACL_PROTECTED | SE_DACL_AUTO_INHERITED;
  return ::GetSecurityDescriptorOwner(from, &owner, &defaulted) &&
         ::SetSecurityDescriptorOwner(&into, owner, FALSE) &&
         ::GetSecurityDescriptorGroup(from, &group, &defaulted) &&
         ::SetSecurityDescriptorGroup(&into, group, FALSE) &&
         ::GetSecurityDescriptorDacl(from, &present, &dacl, &defaulted) &&
         ::SetSecurityDescriptorDacl(&into, present, dacl, FALSE) &&
         ::GetSecurityDescriptorControl(from, &control, &revision) &&
         ::SetSecurityDescriptorControl(&into, kept, (control & kept) | SE_DACL_PROTECTED);
}

// `into` takes the SACL of `from`, if it has one, with its protection.
bool take_system(SECURITY_DESCRIPTOR& into, PSECURITY_DESCRIPTOR from) {
  PACL sacl = nullptr;
  BOOL present = FALSE, defaulted = FALSE;
  SECURITY_DESCRIPTOR_CONTROL control = 0;
  DWORD revision = 0;
  constexpr SECURITY_DESCRIPTOR_CONTROL kept = SE_SACL_PROTECTED | SE_SACL_AUTO_INHERITED;
  if (!::GetSecurityDescriptorSacl(from, &present, &sacl, &defaulted)) return false;
  if (!present) return true;
  return ::SetSecurityDescriptorSacl(&into, TRUE, sacl, FALSE) &&
         ::GetSecurityDescriptorControl(from, &control, &revision) &&
         ::SetSecurityDescriptorControl(&into, kept, control & kept);
}

}  // namespace

// GetKernelObjectSecurity through handles of its own (ReOpenFile): owner,
// group and DACL with READ_CONTROL; the SACL and label with
// ACCESS_SYSTEM_SECURITY, else the label alone, else neither, as
// system_acl_of says; joined into one self-relative descriptor
// (MakeSelfRelativeSD). A failure fails the call, `*parts` then holding
// what was read before the part that failed (0 if the joining failed).
ssize_t read_security(handle h, void* descriptor, size_t size, unsigned* parts) {
  *parts = 0;
  std::vector<char> discretionary = read_through(
      h, READ_CONTROL,
      OWNER_SECURITY_INFORMATION | GROUP_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION);
  if (discretionary.empty()) return fail_last();
  *parts = security_part::owner | security_part::group | security_part::dacl;
  std::vector<char> system;
  if (!system_acl_of(h, &system, parts)) return fail_last();
  SECURITY_DESCRIPTOR joined;
  if (!::InitializeSecurityDescriptor(&joined, SECURITY_DESCRIPTOR_REVISION) ||
      !take_discretionary(joined, discretionary.data()) ||
      (!system.empty() && !take_system(joined, system.data()))) {
    *parts = 0;
    return fail_last();
  }
  DWORD needed = static_cast<DWORD>(size);
  if (::MakeSelfRelativeSD(&joined, descriptor, &needed)) return static_cast<ssize_t>(needed);
  if (::GetLastError() == ERROR_INSUFFICIENT_BUFFER) return static_cast<ssize_t>(needed);
  *parts = 0;
  return fail_last();
}

// SetFileInformationByHandle FileBasicInfo, the times left as they are (0);
// no attribute at all is FILE_ATTRIBUTE_NORMAL (0 there would mean "leave").
int set_file_attributes(handle h, std::uint32_t attributes) {
  FILE_BASIC_INFO basic{};
  basic.FileAttributes = attributes != 0 ? attributes : FILE_ATTRIBUTE_NORMAL;
  return ::SetFileInformationByHandle(h, FileBasicInfo, &basic, sizeof basic) ? 0 : fail_last();
}

}  // namespace sluice::detail::win32
