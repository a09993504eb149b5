#include "writer/plain_flush.hpp"

#include "os/page_size.hpp"

namespace sluice::detail {

// On a page: the kernel copies the buffer into page-cache pages, and ran
// 6-8% faster on the text scenario from a page-aligned buffer than from a
// 16-byte aligned one (docs/performance.md, "Where a buffer starts").
owned_buffer plain_flush::allocate(std::size_t size) const {
  owned_buffer fresh = allocate_buffer(size, page_size());
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

namespace {

// Frees the blocks reserved up to `reserved_end` past the file's data, if
// there are any: an ftruncate to the size. Never to the size alone: on XFS,
// an ftruncate writes back every dirty page below its size first, even one
// that changes nothing (docs/performance.md).
void give_back(file& target, std::uint64_t reserved_end) {
  if (reserved_end == 0) return;
  std::uint64_t size = target.size();
  if (reserved_end > size) target.resize(size);
}

}  // namespace

void plain_flush::finish(buffered_file& b, std::uint64_t reserved_end) {
  give_back(b.target_, reserved_end);
  follow_close(b);
}

void plain_flush::trim_after_failure(buffered_file& b, std::uint64_t reserved_end) noexcept {
  if (!b.target_.is_open()) return;
  try {
    give_back(b.target_, reserved_end);
  } catch (const std::exception&) {
  }
}

}  // namespace sluice::detail
