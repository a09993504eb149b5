#include "peers/mapped_input.hpp"

#include <sys/mman.h>

#include <cerrno>
#include <system_error>

#include "core/io.hpp"

namespace sluice::bench {

const char* const mapping_name = "mmap";

mapped_input::mapped_input(const char* path) {
  raw_input in(path);
  size_ = in.size();
  if (size_ == 0) return;
  void* map = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, in.fd(), 0);
  if (map == MAP_FAILED) throw std::system_error(errno, std::generic_category(), "mmap");
  data_ = static_cast<const char*>(map);
}

mapped_input::~mapped_input() {
  if (data_) ::munmap(const_cast<char*>(data_), size_);
}

}  // namespace sluice::bench
