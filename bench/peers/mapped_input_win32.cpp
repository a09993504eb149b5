// The mapped peer's input on Windows: CreateFileMapping and MapViewOfFile of
// the whole file, read-only.
#include <io.h>
#include <windows.h>

#include <system_error>

#include "core/io.hpp"
#include "peers/mapped_input.hpp"

namespace sluice::bench {

const char* const mapping_name = "MapViewOfFile";

mapped_input::mapped_input(const char* path) {
  raw_input in(path);
  size_ = in.size();
  if (size_ == 0) return;
  HANDLE mapping = ::CreateFileMappingW(reinterpret_cast<HANDLE>(::_get_osfhandle(in.fd())),
                                        nullptr, PAGE_READONLY, 0, 0, nullptr);
  if (!mapping)
    throw std::system_error(static_cast<int>(::GetLastError()), std::system_category(),
                            "CreateFileMapping");
  // The view keeps the mapping, and the file, open until it is unmapped.
  data_ = static_cast<const char*>(::MapViewOfFile(mapping, FILE_MAP_READ, 0, 0, size_));
  DWORD error = ::GetLastError();
  ::CloseHandle(mapping);
  if (!data_)
    throw std::system_error(static_cast<int>(error), std::system_category(), "MapViewOfFile");
}

mapped_input::~mapped_input() {
  if (data_) ::UnmapViewOfFile(data_);
}

}  // namespace sluice::bench
