#include "writer/aligned_buffer.hpp"

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <new>
#include <utility>

namespace sluice::detail {

void free_deleter::operator()(char* buffer) const noexcept { std::free(buffer - offset); }

// From malloc, aligned by hand: glibc maps an aligned_alloc of 128 KiB or
// more afresh each time, and the first writes or reads into it fault its
// pages in one by one (350 us for a MiB on the VM of docs/performance.md),
// where it hands a freed malloc block to the next buffer of that size with
// its pages in.
owned_buffer allocate_buffer(std::size_t capacity, std::size_t align) {
  if (capacity > std::numeric_limits<std::size_t>::max() - 2 * (align - 1)) throw std::bad_alloc();
  std::size_t rounded = (capacity + align - 1) / align * align;
  auto* memory = static_cast<char*>(std::malloc(rounded + align - 1));
  if (!memory) throw std::bad_alloc();
  auto address = reinterpret_cast<std::uintptr_t>(memory);
  std::size_t offset = (align - address % align) % align;
  return {std::unique_ptr<char[], free_deleter>(memory + offset, free_deleter{offset}), rounded};
}

owned_buffer take_free(std::vector<owned_buffer>& free, std::size_t capacity) {
  while (!free.empty()) {
    owned_buffer recycled = std::move(free.back());
    free.pop_back();
    if (recycled.capacity >= capacity) return recycled;  // else the writer's buffer grew: drop it
  }
  return {};
}

}  // namespace sluice::detail
