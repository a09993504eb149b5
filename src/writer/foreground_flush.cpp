#include "writer/foreground_flush.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "sluice/error.hpp"
#include "writer/direct_flush.hpp"
#include "writer/plain_flush.hpp"

namespace sluice::detail {
namespace {

// After a write of `held` buffered bytes failed with `written` of them in
// the file: the others stay buffered, moved to the front.
void keep_unwritten(buffered_file& b, std::size_t held, std::uint64_t written) noexcept {
  std::size_t kept = held - static_cast<std::size_t>(std::min<std::uint64_t>(written, held));
  std::memmove(b.begin_, b.pos_ - kept, kept);
  b.pos_ = b.begin_ + kept;
}

}  // namespace

std::span<const std::byte> bytes_of(const char* data, std::size_t size) noexcept {
  return {reinterpret_cast<const std::byte*>(data), size};
}

void foreground_flush::attach(buffered_file&, write_followup followup) { followup_ = followup; }

void foreground_flush::write_handed_off(buffered_file& b, const char* data, std::size_t size,
                                        std::uint64_t offset, std::uint64_t& written) {
  try {
    b.target_.write_at(bytes_of(data, size), offset);
  } catch (const write_error& e) {
    written = e.bytes_written();
    throw;
  }
  written = size;
  followup_.after(b.target_, offset, size);
}

void foreground_flush::write_out(buffered_file& b,
                                 std::span<const std::span<const std::byte>> pieces,
                                 std::size_t held) {
  b.sticking([&] {
    try {
      b.target_.write_gather(pieces);
    } catch (const write_error& e) {
      keep_unwritten(b, held, e.bytes_written());
      throw;
    }
  });
}

void foreground_flush::follow(buffered_file& b, std::uint64_t start, std::uint64_t length) {
  b.sticking([&] { followup_.after(b.target_, start, length); });
}

void foreground_flush::follow_close(buffered_file& b) { followup_.at_close(b.target_); }

std::unique_ptr<foreground_flush> make_flush_strategy(const writer_options& options) {
  if (options.caching == caching_mode::direct) return std::make_unique<direct_flush>();
  return std::make_unique<plain_flush>();
}

}  // namespace sluice::detail
