// sluice-text2bin: a byte's line, column and offset in the input, however
// the input was cut into pieces.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace text2bin {

// What a stretch of text tells about the lines up to a byte of it: the
// '\n's before the byte, and where the line that holds the byte starts in
// the stretch (npos: before the stretch).
struct line_marks {
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  std::size_t at = 0;
  std::size_t newlines = 0;
  std::size_t line_start = npos;
};

// The marks of byte `at` of `text` (at <= text.size(): the size for the
// whole stretch). Cost: a vectorised count of the '\n's before `at`, and a
// memrchr back to the last one.
line_marks marks_of(std::string_view text, std::size_t at) noexcept;

class text_error;

// A text_error placed in the stretch of text it was thrown for: the same
// message, and the marks of its byte there (at most the stretch's end).
class located_error : public std::runtime_error {
 public:
  located_error(const text_error& error, std::string_view text);

  const line_marks& marks() const noexcept { return marks_; }

 private:
  line_marks marks_;
};

// Where the stretches passed so far end: the input offset, line and column
// there. The consumer of the pieces passes each in input order; a byte of
// the next one is then located exactly, whatever the thread that parsed it.
class line_counter {
 public:
  // Passes a stretch whose whole marks are `whole` (marks_of(text, size)).
  void pass(const line_marks& whole) noexcept;

  // "line 7, column 12 (offset 4133)" for the byte `marks` describe in the
  // stretch that follows those passed: lines counted from 1, the column in
  // bytes from the line's start, from 1.
  std::string where(const line_marks& marks) const;

 private:
  std::uint64_t offset_ = 0;      // of the next stretch's first byte
  std::uint64_t line_ = 1;        // the line that byte is on
  std::uint64_t line_start_ = 0;  // the offset where that line starts
};

}  // namespace text2bin
