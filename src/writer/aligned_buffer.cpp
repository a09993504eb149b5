#include "writer/aligned_buffer.hpp"

#include <cstdlib>
#include <limits>
#include <new>
#include <utility>

namespace sluice::detail {

void free_deleter::operator()(char* buffer) const noexcept { std::free(buffer); }

owned_buffer allocate_buffer(std::size_t capacity, std::size_t align) {
  if (capacity > std::numeric_limits<std::size_t>::max() - (align - 1)) throw std::bad_alloc();
  std::size_t rounded = (capacity + align - 1) / align * align;
  auto* data = static_cast<char*>(std::aligned_alloc(align, rounded));
  if (!data) throw std::bad_alloc();
  return {std::unique_ptr<char[], free_deleter>(data), rounded};
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
