#include "writer/flush_strategy.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "os/sticky_error.hpp"

namespace sluice::detail {

void buffered_file::fail(std::exception_ptr error) noexcept {
  stick(error_, std::move(error));
  end_ = pos_;  // no room left: every later write takes the slow path and rethrows
}

void buffered_file::rethrow_sticky() {
  error_thrown_ = true;
  std::rethrow_exception(error_);
}

void flush_strategy::write(buffered_file& b, std::span<const char> payload) {
  const char* data = payload.data();
  std::size_t size = payload.size();
  while (size > 0) {
    if (b.pos_ == b.end_) make_room(b);
    std::size_t n = std::min(size, static_cast<std::size_t>(b.end_ - b.pos_));
    std::memcpy(b.pos_, data, n);
    b.pos_ += n;
    data += n;
    size -= n;
  }
}

void install_buffer(buffered_file& b, owned_buffer fresh) noexcept {
  std::size_t held = b.held();
  if (held) std::memcpy(fresh.data.get(), b.begin_, held);
  b.storage_ = std::move(fresh.data);
  b.capacity_ = fresh.capacity;
  b.begin_ = b.storage_.get();
  b.pos_ = b.begin_ + held;
  b.end_ = b.begin_ + b.capacity_;
}

}  // namespace sluice::detail
