#include "core/page_buffer.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

namespace sluice::bench {
namespace {

char* allocate_zeroed(std::size_t size) {
  auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::size_t rounded = std::max<std::size_t>((size + page - 1) / page, 1) * page;
  auto* bytes = static_cast<char*>(std::aligned_alloc(page, rounded));
  if (!bytes) throw std::bad_alloc();
  std::memset(bytes, 0, rounded);
  return bytes;
}

}  // namespace

page_buffer::page_buffer(std::size_t size) : bytes_(allocate_zeroed(size)), size_(size) {}

void page_buffer::resize(std::size_t size) {
  std::unique_ptr<char[], sluice::detail::free_deleter> bigger(allocate_zeroed(size));
  std::memcpy(bigger.get(), bytes_.get(), std::min(size, size_));
  bytes_ = std::move(bigger);
  size_ = size;
}

}  // namespace sluice::bench
