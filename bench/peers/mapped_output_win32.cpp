#include <io.h>
#include <windows.h>

#include <system_error>

#include "peers/mapped_output.hpp"

namespace sluice::bench {

const char* const mapped_sync_name = "FlushViewOfFile + FlushFileBuffers";

namespace {
[[noreturn]] void fail(const char* call) {
  throw std::system_error(static_cast<int>(::GetLastError()), std::system_category(), call);
}
HANDLE handle_of(int fd) { return reinterpret_cast<HANDLE>(::_get_osfhandle(fd)); }
}  // namespace

mapped_output::mapped_output(int fd, std::size_t size) : fd_(fd), size_(size) {
  auto wide = static_cast<std::uint64_t>(size);
  mapping_ =
      ::CreateFileMappingW(handle_of(fd), nullptr, PAGE_READWRITE, static_cast<DWORD>(wide >> 32),
                           static_cast<DWORD>(wide), nullptr);
  if (!mapping_) fail("CreateFileMapping");
  data_ = static_cast<char*>(::MapViewOfFile(mapping_, FILE_MAP_WRITE, 0, 0, size));
  if (!data_) {
    DWORD error = ::GetLastError();
    ::CloseHandle(mapping_);
    throw std::system_error(static_cast<int>(error), std::system_category(), "MapViewOfFile");
  }
}

mapped_output::~mapped_output() {
  ::UnmapViewOfFile(data_);
  ::CloseHandle(mapping_);
}

// FlushViewOfFile starts the pages' writes; FlushFileBuffers waits for
// them and the file's metadata.
void mapped_output::sync(std::size_t offset, std::size_t size) {
  if (!::FlushViewOfFile(data_ + offset, size)) fail("FlushViewOfFile");
  if (!::FlushFileBuffers(handle_of(fd_))) fail("FlushFileBuffers");
}

}  // namespace sluice::bench
