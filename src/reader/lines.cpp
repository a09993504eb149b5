// sluice::reader's lines: read_line's slow part, skip_line, and the index
// of the buffer's newlines it walks (line_search.hpp).
#include <algorithm>
#include <cstring>
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

}  // namespace

// The next '\n' at or after the position in what is buffered, or null;
// the index moves past it. What is buffered is indexed a stretch at a
// time, from where the last search stopped (indexed_to_), so each byte is
// scanned once however the lines fall.
const std::byte* reader::next_newline() noexcept {
  for (;;) {
    while (next_newline_ != newlines_end_) {
      const std::byte* newline = index_base_ + *next_newline_++;
      if (newline >= pos_) return newline;
    }
    std::uint64_t from = std::max(indexed_to_, tell());
    const std::byte* at = begin_ + (from - base_);
    if (at >= end_) {
      indexed_to_ = from;
      return nullptr;
    }
    index_from(at);
  }
}

// Indexes the newlines of the stretch of the buffer from `from`. The scan
// reads whole blocks: where the stretch ends at end_, the rest of its last
// block (inside the buffer or its padding) is zeroed first, so that no
// byte the scan reads is memory nothing wrote.
void reader::index_from(const std::byte* from) noexcept {
  const std::byte* block = block_of(from);
  const std::byte* limit = std::min<const std::byte*>(end_, block + detail::newline_stretch);
  if (limit == end_) {
    auto address = reinterpret_cast<std::uintptr_t>(end_);
    std::memset(end_, 0, -address & (detail::newline_block_size - 1));
  }
  std::size_t count = detail::index_newlines(block, from, limit, newlines_.get());
  index_base_ = block;
  next_newline_ = newlines_.get();
  newlines_end_ = next_newline_ + count;
  indexed_to_ = base_ + static_cast<std::uint64_t>(limit - begin_);
}

// Before the buffer moves: the index points into it. Newlines it held and
// read_line has not passed are found again from the position.
void reader::forget_newlines() noexcept {
  if (next_newline_ != newlines_end_) indexed_to_ = tell();
  next_newline_ = newlines_end_ = nullptr;
}

// The bytes that prove the line at the position too long when no newline
// is among them: max_line, one more, and its '\r' with line_end::crlf.
std::size_t reader::line_room() const noexcept {
  return options_.max_line + (options_.line_ending == line_end::crlf ? 2 : 1);
}

// read_line() where its inline part did not find the line whole: the index
// is empty (or behind the position), the line is too long, or the buffer
// ends inside it.
std::optional<std::string_view> reader::read_line_slow() {
  for (;;) {
    if (const std::byte* newline = next_newline()) {
      auto length = static_cast<std::size_t>(newline - pos_);
      const char* text = reinterpret_cast<const char*>(pos_);
      if (options_.line_ending == line_end::crlf && length != 0 && text[length - 1] == '\r')
        --length;
      if (length > options_.max_line) {
        --next_newline_;  // skip_line() goes past it
        throw_line_too_long();
      }
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
    if (const std::byte* newline = next_newline()) {
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

void reader::throw_line_too_long(const char* operation) const {
  throw line_too_long(detail::describe(operation, path(), tell()) + ": line " +
                          std::to_string(lines_ + 1) + " is longer than " +
                          std::to_string(options_.max_line) + " bytes",
                      lines_ + 1, tell());
}

}  // namespace sluice
