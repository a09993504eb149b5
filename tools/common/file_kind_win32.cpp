// kind_of on Windows: GetFileType, then GetFileInformationByHandle for a
// file on disk.
#include <windows.h>

#include <system_error>

#include "common/file_kind.hpp"

namespace sluice_tools {

file_kind kind_of(const sluice::file& file, const std::string& name) {
  HANDLE h = file.native_handle();
  if (::GetFileType(h) != FILE_TYPE_DISK) return {};
  BY_HANDLE_FILE_INFORMATION info;
  if (!::GetFileInformationByHandle(h, &info))
    throw std::system_error(static_cast<int>(::GetLastError()), std::system_category(),
                            "stat '" + name + "'");
  if (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) return {file_kind::type::directory};
  return {file_kind::type::regular, (std::uint64_t{info.nFileSizeHigh} << 32) | info.nFileSizeLow};
}

}  // namespace sluice_tools
