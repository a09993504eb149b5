// Finding newlines at memory speed: the buffer is scanned once, 64 bytes at
// a time, into a mask of where the newlines are, so that a short line costs
// a bit scan, not a call to memchr. The scan is chosen once, at the first
// call, for the CPU the program runs on.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sluice::detail {

// Blocks are aligned to this in the reader's buffer, which holds this many
// bytes of padding after its capacity so that a block is always whole.
inline constexpr std::size_t newline_block_size = 64;

// A block of 64 bytes and its newlines: bit i set if block[i] == '\n'.
struct newline_block {
  const std::byte* block;
  std::uint64_t bits;
};

// Scans the blocks from `block` (aligned to newline_block_size) up to
// `limit`: the first that holds a newline before `limit`, bits past `limit`
// cleared, or the last block scanned and no bits. Reads whole blocks: up to
// 63 bytes past `limit`, which must be readable.
newline_block scan_newlines(const std::byte* block, const std::byte* limit) noexcept;

// Which scan scan_newlines() uses on this CPU: "avx2", "sse2" or "portable".
const char* newline_scan_name() noexcept;

// The scans themselves, for tests that compare them on one input; only
// those this CPU can run may be called (newline_scan_name() says the best).
newline_block scan_newlines_portable(const std::byte* block, const std::byte* limit) noexcept;
#if defined(__x86_64__)
newline_block scan_newlines_sse2(const std::byte* block, const std::byte* limit) noexcept;
newline_block scan_newlines_avx2(const std::byte* block, const std::byte* limit) noexcept;
#endif

}  // namespace sluice::detail
