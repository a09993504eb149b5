#include "writer/aligned_buffer.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <new>
#include <utility>

namespace sluice::detail {

void free_deleter::operator()(char* buffer) const noexcept { std::free(buffer - offset); }

namespace {

// A block of malloc's alignment, which std::free releases: std::aligned_alloc
// (which the out-of-memory tests replace), or std::malloc on Windows, whose
// C runtime has no aligned_alloc (malloc's alignment is the same).
char* allocate_block(std::size_t size) noexcept {
#ifdef _WIN32
  return static_cast<char*>(std::malloc(size));
#else
  return static_cast<char*>(std::aligned_alloc(alignof(std::max_align_t), size));
#endif
}

}  // namespace

// Aligned by hand in a block of malloc's alignment: glibc serves an
// aligned_alloc of a larger alignment and 128 KiB or more from a fresh
// mapping each time, and the first writes or reads into it fault its pages
// in one by one (350 us for a MiB on the VM of docs/performance.md), where
// one of malloc's alignment is malloc's, whose freed blocks serve the next
// buffer of that size with their pages in.
owned_buffer allocate_buffer(std::size_t capacity, std::size_t align) {
  constexpr std::size_t granule = alignof(std::max_align_t);
  if (capacity > std::numeric_limits<std::size_t>::max() - 2 * align - granule)
    throw std::bad_alloc();
  std::size_t rounded = (capacity + align - 1) / align * align;
  std::size_t block = (rounded + align - 1 + granule - 1) / granule * granule;
  auto* memory = allocate_block(block);
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
