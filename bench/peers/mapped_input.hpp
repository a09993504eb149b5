// sluice-bench: the mmap peer's input: the whole file mapped read-only, as
// a program that maps its input does (mmap; MapViewOfFile on Windows, in
// mapped_input_win32.cpp). A file that shrinks while mapped
// would raise SIGBUS: the bench's inputs do not.
#pragma once

#include <string_view>

namespace sluice::bench {

// The mapping call's name, for the rows' titles: "mmap" or "MapViewOfFile".
extern const char* const mapping_name;

class mapped_input {
 public:
  explicit mapped_input(const char* path);  // open, size, map; throws std::system_error
  mapped_input(const mapped_input&) = delete;
  mapped_input& operator=(const mapped_input&) = delete;
  ~mapped_input();  // munmap

  std::string_view bytes() const noexcept { return {data_, size_}; }

 private:
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace sluice::bench
