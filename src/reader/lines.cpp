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

// The next '\n' in [pos_, end_), or null. What is buffered is scanned once,
// from the position (or where the last search stopped, clean_to_) to the
// end, into masks_; each call then reads the words from the position on.
// Inlined into read_line and skip_line: it runs once a line.
__attribute__((always_inline)) inline const std::byte* reader::find_newline() noexcept {
  const std::byte* start = pos_;
  if (clean_to_ > tell()) start = std::min<const std::byte*>(begin_ + (clean_to_ - base_), end_);
  if (start >= end_) return nullptr;
  const std::byte* block = block_of(start);
  if (block < masked_from_ || block >= masked_to_) {
    detail::scan_newlines(block, end_, masks_.get() + index_of(block));
    masked_from_ = block;
    masked_to_ = block_of(end_ + (detail::newline_block_size - 1));
  }
  std::size_t i = index_of(block);
  std::size_t last = index_of(masked_to_);
  std::uint64_t word = masks_[i] & from(block, start);
  while (word == 0) {
    if (++i == last) {
      clean_to_ = base_ + static_cast<std::uint64_t>(end_ - begin_);
      return nullptr;
    }
    word = masks_[i];
  }
  return begin_ + i * detail::newline_block_size + std::countr_zero(word);
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
