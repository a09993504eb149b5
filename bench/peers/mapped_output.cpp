#include "peers/mapped_output.hpp"

#include <sys/mman.h>

#include <cerrno>
#include <system_error>

#include "core/raw_calls.hpp"

namespace sluice::bench {

const char* const mapped_sync_name = "msync";

mapped_output::mapped_output(int fd, std::size_t size) : fd_(fd), size_(size) {
  void* map = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) throw std::system_error(errno, std::generic_category(), "mmap");
  data_ = static_cast<char*>(map);
}

mapped_output::~mapped_output() { ::munmap(data_, size_); }

void mapped_output::sync(std::size_t offset, std::size_t size) {
  static const std::size_t page = memory_page_size();
  std::size_t from = offset / page * page;
  if (::msync(data_ + from, offset + size - from, MS_SYNC) != 0)
    throw std::system_error(errno, std::generic_category(), "msync");
}

}  // namespace sluice::bench
