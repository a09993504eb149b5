#include "text2bin/text_position.hpp"

#include <algorithm>
#include <cstring>

#include "common/last_newline.hpp"
#include "text2bin/text_error.hpp"

namespace text2bin {
namespace {

// The '\n's in [text, text + size), 240 bytes at a time in a loop the
// compiler vectorises: a byte counter per lane (240 fits), summed once per
// block.
std::size_t count_newlines(const char* text, std::size_t size) noexcept {
  constexpr std::size_t block = 240;
  std::size_t count = 0;
  std::size_t i = 0;
  for (; i + block <= size; i += block) {
    unsigned char in_block = 0;
    for (std::size_t k = 0; k < block; ++k) in_block += text[i + k] == '\n';
    count += in_block;
  }
  for (; i < size; ++i) count += text[i] == '\n';
  return count;
}

}  // namespace

line_marks marks_of(std::string_view text, std::size_t at) noexcept {
  line_marks marks{.at = at, .newlines = count_newlines(text.data(), at)};
  if (const char* newline = sluice_tools::last_newline(text.data(), at))
    marks.line_start = static_cast<std::size_t>(newline - text.data()) + 1;
  return marks;
}

located_error::located_error(const text_error& error, std::string_view text)
    : std::runtime_error(error.what()), marks_(marks_of(text, std::min(error.at(), text.size()))) {}

void line_counter::pass(const line_marks& whole) noexcept {
  line_ += whole.newlines;
  if (whole.line_start != line_marks::npos) line_start_ = offset_ + whole.line_start;
  offset_ += whole.at;
}

std::string line_counter::where(const line_marks& marks) const {
  std::uint64_t offset = offset_ + marks.at;
  std::uint64_t line_start =
      marks.line_start == line_marks::npos ? line_start_ : offset_ + marks.line_start;
  return "line " + std::to_string(line_ + marks.newlines) + ", column " +
         std::to_string(offset - line_start + 1) + " (offset " + std::to_string(offset) + ")";
}

}  // namespace text2bin
