// The memory of a writer's and a reader's buffers: aligned in blocks from
// std::aligned_alloc of malloc's alignment, shared by the writer and its
// write-behind engines, which recycle the buffers they are handed.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "sluice/writer.hpp"

namespace sluice::detail {

// A buffer (aligned in its block) and its size in bytes.
struct owned_buffer {
  std::unique_ptr<char[], free_deleter> data;
  std::size_t capacity = 0;
};

// At least `capacity` bytes (rounded up to a multiple of `align`, a power
// of two), aligned to `align`. Throws std::bad_alloc.
owned_buffer allocate_buffer(std::size_t capacity, std::size_t align);

// The last of `free` that holds at least `capacity` bytes, taken out of it;
// those smaller are dropped on the way (the writer's buffer grew). None if
// there is no such buffer.
owned_buffer take_free(std::vector<owned_buffer>& free, std::size_t capacity);

}  // namespace sluice::detail
