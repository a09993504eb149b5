#include "writer/plain_flush.hpp"

namespace sluice::detail {

owned_buffer plain_flush::allocate(std::size_t size) const {
  owned_buffer fresh = allocate_buffer(size, alignof(std::max_align_t));
  fresh.capacity = size;
  return fresh;
}

void plain_flush::write(buffered_file& b, std::span<const char> payload) {
  if (payload.size() < gather_threshold(b.capacity_)) return flush_strategy::write(b, payload);
  write_with(b, payload);
}

void plain_flush::write_with(buffered_file& b, std::span<const char> payload) {
  std::size_t held = b.held();
  if (held + payload.size() == 0) return;
  std::uint64_t start = b.target_.position();
  std::span<const std::byte> pieces[2] = {bytes_of(b.begin_, held),
                                          bytes_of(payload.data(), payload.size())};
  write_out(b, {pieces, payload.empty() ? 1u : 2u}, held);
  b.pos_ = b.begin_;
  follow(b, start, held + payload.size());
}

void plain_flush::finish(buffered_file& b, bool reserved) {
  if (reserved) b.target_.resize(b.target_.size());
  follow_close(b);
}

void plain_flush::trim_after_failure(buffered_file& b, bool reserved) noexcept {
  if (!reserved || !b.target_.is_open()) return;
  try {
    b.target_.resize(b.target_.size());
  } catch (const std::exception&) {
  }
}

}  // namespace sluice::detail
