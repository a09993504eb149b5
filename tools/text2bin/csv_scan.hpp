// sluice-text2bin: where CSV rows end, found at memory speed.
#pragma once

#include <cstddef>
#include <string_view>

namespace text2bin {

// One past the last '\n' of `text` that is outside quotes, counting every
// '"' from the start of `text` (an even number before a byte: outside),
// or 0 if there is none. Cost: memchr for a '"', then memrchr for the last
// line end, when `text` has no quote; otherwise one pass 64 bytes at a time
// (SSE2 compares where the target has them) that reads each byte once.
std::size_t last_row_end(std::string_view text) noexcept;

// One past the first '\n' of `text` outside quotes, or npos if there is
// none. A byte at a time: for a header row, read once.
std::size_t first_row_end(std::string_view text) noexcept;

}  // namespace text2bin
