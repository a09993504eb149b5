// The Win32 backend's read_link: the text of a symbolic link (a reparse
// point tagged IO_REPARSE_TAG_SYMLINK), for atomic_replace to follow a link
// at its target's name as Linux does (resolve_target_win32.cpp).
#include <windows.h>
#include <winioctl.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "os/win32_errors.hpp"
#include "os/win32_handles.hpp"
#include "os/win32_sys.hpp"

namespace sluice::detail::win32 {
namespace {

// The symbolic link's reparse data (REPARSE_DATA_BUFFER's symbolic-link
// case, which the user-mode headers do not all declare): the names are
// UTF-16 at their offsets in `path`, in bytes.
struct symbolic_link_data {
  ULONG tag;
  USHORT data_length;
  USHORT reserved;
  USHORT substitute_offset;
  USHORT substitute_length;
  USHORT print_offset;
  USHORT print_length;
  ULONG flags;
  WCHAR path[1];
};

constexpr ULONG relative_link = 1;  // SYMLINK_FLAG_RELATIVE

// The link's target as a Win32 path: an absolute link's NT name
// ("\??\C:\dir\file") without its "\??\" ("\??\UNC\server\share" as
// "\\server\share"); a relative one as written.
std::wstring target_of(const symbolic_link_data& link) {
  const auto* names = reinterpret_cast<const char*>(link.path);
  std::wstring name(reinterpret_cast<const wchar_t*>(names + link.substitute_offset),
                    link.substitute_length / sizeof(wchar_t));
  if (link.flags & relative_link) return name;
  if (name.starts_with(L"\\??\\UNC\\")) return L"\\\\" + name.substr(8);
  if (name.starts_with(L"\\??\\")) return name.substr(4);
  return name;
}

}  // namespace

// DeviceIoControl FSCTL_GET_REPARSE_POINT on the handle (opened with
// no_follow, which opens the reparse point itself): the target in UTF-8.
// EINVAL for a reparse point that is not a symbolic link (as readlink(2)
// on a file that is not a link), ENAMETOOLONG if `size` cannot hold it.
ssize_t read_link(handle h, char* buffer, size_t size) {
  std::vector<std::byte> data(MAXIMUM_REPARSE_DATA_BUFFER_SIZE);
  DWORD got = 0;
  if (!::DeviceIoControl(h, FSCTL_GET_REPARSE_POINT, nullptr, 0, data.data(),
                         static_cast<DWORD>(data.size()), &got, nullptr)) {
    DWORD error = ::GetLastError();
    return error == ERROR_NOT_A_REPARSE_POINT ? refuse(EINVAL) : fail(error);
  }
  const auto& link = *reinterpret_cast<const symbolic_link_data*>(data.data());
  if (link.tag != IO_REPARSE_TAG_SYMLINK) return refuse(EINVAL);
  std::wstring target = target_of(link);
  std::string text = narrow(target.data(), target.size());
  if (text.size() > size) return refuse(ENAMETOOLONG);
  std::memcpy(buffer, text.data(), text.size());
  return static_cast<ssize_t>(text.size());
}

}  // namespace sluice::detail::win32
