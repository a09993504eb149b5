#include "core/page_buffer.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/raw_calls.hpp"

namespace sluice::bench {
namespace {

std::size_t page_size() { return memory_page_size(); }

char* first_on_a_page(std::vector<char>& memory) {
  auto address = reinterpret_cast<std::uintptr_t>(memory.data());
  std::size_t page = page_size();
  return memory.data() + (page - address % page) % page;
}

}  // namespace

page_buffer::page_buffer(std::size_t size)
    : memory_(size + page_size()), data_(first_on_a_page(memory_)), size_(size) {}

void page_buffer::resize(std::size_t size) {
  std::vector<char> memory(size + page_size());
  char* data = first_on_a_page(memory);
  std::memcpy(data, data_, std::min(size, size_));
  memory_ = std::move(memory);
  data_ = data;
  size_ = size;
}

}  // namespace sluice::bench
