// sluice::reader's lines: read_line, skip_line and the newline search over
// the buffer (line_search.hpp).
#include <bit>
#include <string>

#include "os/error_messages.hpp"
#include "reader/line_search.hpp"
#include "sluice/reader.hpp"

namespace sluice {
namespace {

const std::byte* block_of(const std::byte* p) noexcept {
  auto address = reinterpret_cast<std::uintptr_t>(p);
  return reinterpret_cast<const std::byte*>(address & ~(detail::newline_block_size - 1));
}

// Bits of a block's bytes at or after `p`.
std::uint64_t from(const std::byte* block, const std::byte* p) noexcept {
  return ~std::uint64_t{0} << (p - block);
}

}  // namespace

// The next '\n' in [pos_, end_), or null. Each buffered byte is scanned once:
// the newlines of the last block scanned are kept in bits_ (those before
// pos_ masked off at each call), and after a refill the scan goes on from
// clean_to_, where the last one stopped.
const std::byte* reader::find_newline() noexcept {
  const std::byte* block = block_;
  std::uint64_t bits = bits_;
  if (block == nullptr || pos_ < block || pos_ >= block + detail::newline_block_size) {
    const std::byte* start = pos_;
    if (clean_to_ > tell()) start = std::min<const std::byte*>(begin_ + (clean_to_ - base_), end_);
    if (start == end_) return nullptr;
    detail::newline_block found = detail::scan_newlines(block_of(start), end_);
    block = found.block;
    bits = found.bits;
    if (block <= start) bits &= from(block, start);
  } else {
    bits &= from(block, pos_);
  }
  while (bits == 0) {
    block += detail::newline_block_size;
    if (block >= end_) {
      block_ = nullptr;
      clean_to_ = base_ + static_cast<std::uint64_t>(end_ - begin_);
      return nullptr;
    }
    detail::newline_block found = detail::scan_newlines(block, end_);
    block = found.block;
    bits = found.bits;
  }
  block_ = block;
  bits_ = bits;  // the newline returned stays: the caller moves past it, or not (too long)
  return block + std::countr_zero(bits);
}

// The bytes that prove the line at the position too long when no newline
// is among them: max_line, one more, and its '\r' with line_end::crlf.
std::size_t reader::line_room() const noexcept {
  return options_.max_line + (options_.line_ending == line_end::crlf ? 2 : 1);
}

std::optional<std::string_view> reader::read_line() {
  for (;;) {
    if (const std::byte* newline = find_newline()) {
      auto length = static_cast<std::size_t>(newline - pos_);
      const char* text = reinterpret_cast<const char*>(pos_);
      if (options_.line_ending == line_end::crlf && length != 0 && text[length - 1] == '\r')
        --length;
      if (length > options_.max_line) throw_line_too_long();
      pos_ = const_cast<std::byte*>(newline) + 1;
      ++lines_;
      return std::string_view(text, length);
    }
    auto buffered = static_cast<std::size_t>(end_ - pos_);
    if (buffered >= line_room()) throw_line_too_long();
    if (fill(buffered + 1) == buffered) break;  // the end of the file
  }
  if (pos_ == end_) return std::nullopt;
  auto length = static_cast<std::size_t>(end_ - pos_);
  if (length > options_.max_line) throw_line_too_long();
  std::string_view line(reinterpret_cast<const char*>(pos_), length);
  pos_ = end_;
  ++lines_;
  return line;
}

std::uint64_t reader::skip_line() {
  std::uint64_t skipped = 0;
  for (;;) {
    if (const std::byte* newline = find_newline()) {
      skipped += static_cast<std::uint64_t>(newline + 1 - pos_);
      pos_ = const_cast<std::byte*>(newline) + 1;
      ++lines_;
      return skipped;
    }
    skipped += static_cast<std::uint64_t>(end_ - pos_);
    pos_ = end_;
    if (fill(1) == 0) break;
  }
  if (skipped != 0) ++lines_;
  return skipped;
}

void reader::throw_line_too_long() const {
  throw line_too_long(detail::describe("read_line", path(), tell()) + ": line " +
                          std::to_string(lines_ + 1) + " is longer than " +
                          std::to_string(options_.max_line) + " bytes",
                      lines_ + 1, tell());
}

}  // namespace sluice
