// sluice-bench: a file written through a shared mapping, each commit made
// durable by its pages: mmap and msync(MS_SYNC) (mapped_output.cpp), or
// MapViewOfFile, FlushViewOfFile and FlushFileBuffers on Windows
// (mapped_output_win32.cpp), as a journal that maps its file does.
#pragma once

#include <cstddef>
#include <cstdint>

#include "peers/mapped_input.hpp"  // mapping_name

namespace sluice::bench {

// The durable commit's calls: "msync" or "FlushViewOfFile + FlushFileBuffers".
extern const char* const mapped_sync_name;

class mapped_output {
 public:
  // Maps the first `size` bytes of the file open as `fd` (read-write, at
  // least `size` long), shared. Throws std::system_error.
  mapped_output(int fd, std::size_t size);
  mapped_output(const mapped_output&) = delete;
  mapped_output& operator=(const mapped_output&) = delete;
  ~mapped_output();  // unmaps

  char* data() const noexcept { return data_; }
  // Makes bytes [offset, offset + size) durable: msync(MS_SYNC) of the
  // pages holding them, or FlushViewOfFile of them and FlushFileBuffers.
  // Throws std::system_error.
  void sync(std::size_t offset, std::size_t size);

 private:
  int fd_;
  char* data_ = nullptr;
  std::size_t size_;
  void* mapping_ = nullptr;  // Windows: the file mapping object
};

}  // namespace sluice::bench
