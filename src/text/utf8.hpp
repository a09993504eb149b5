// Checking UTF-8 one sequence at a time, for the escaping writers.
#pragma once

#include <cstddef>

namespace sluice::detail {

// The sequence starting at `text` (a byte >= 0x80; `size` bytes left).
struct utf8_sequence {
  std::size_t length;  // bytes it takes: the valid sequence, or its maximal subpart
  bool valid;
};

// A valid sequence's length, or the maximal subpart to replace by U+FFFD: the
// lead byte and the continuation bytes that still fit a valid sequence.
utf8_sequence next_utf8(const unsigned char* text, std::size_t size) noexcept;

}  // namespace sluice::detail
