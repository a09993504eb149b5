// Finding newlines at memory speed: a stretch of the buffer is scanned 64
// bytes at a time with vector compares into one bit per byte, and the bits
// are turned at once into an array of the newlines' offsets (the index).
// read_line then takes the next offset: a short line costs a load and a
// predictable branch, not a call to memchr nor a walk over bits whose
// branches depend on the line lengths. The scan is chosen once, at the
// first call, for the CPU the program runs on.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sluice::detail {

// Blocks are aligned to this in the reader's buffer, which holds this many
// bytes of padding after its capacity so that a block is always whole.
inline constexpr std::size_t newline_block_size = 64;

// The most bytes one index_newlines() call scans: a bound on the index
// (4 bytes an entry), small enough to stay in the L1 cache beside the
// lines it points into.
inline constexpr std::size_t newline_stretch = 8192;

// Entries an index array must have room for: one per byte of a stretch,
// plus the spare ones index_newlines() may write past the last newline.
inline constexpr std::size_t newline_index_capacity = newline_stretch + 8;

// Writes into `index` the offset from `block` of each '\n' in [from,
// limit), in order, and returns their count. `block` is `from` rounded
// down to newline_block_size; limit - block <= newline_stretch. Reads whole
// blocks: up to 63 bytes past `limit`, which must be readable. Writes up to
// newline_index_capacity entries (some past the count, which mean nothing).
std::size_t index_newlines(const std::byte* block, const std::byte* from, const std::byte* limit,
                           std::uint32_t* index) noexcept;

// Which scan index_newlines() uses on this CPU: "avx512", "avx2", "sse2" or
// "portable".
const char* newline_scan_name() noexcept;

// The scans themselves, for tests that compare them on one input; only
// those this CPU can run may be called (newline_scan_name() says the best).
std::size_t index_newlines_portable(const std::byte* block, const std::byte* from,
                                    const std::byte* limit, std::uint32_t* index) noexcept;
#if defined(__x86_64__)
std::size_t index_newlines_sse2(const std::byte* block, const std::byte* from,
                                const std::byte* limit, std::uint32_t* index) noexcept;
std::size_t index_newlines_avx2(const std::byte* block, const std::byte* from,
                                const std::byte* limit, std::uint32_t* index) noexcept;
std::size_t index_newlines_avx512(const std::byte* block, const std::byte* from,
                                  const std::byte* limit, std::uint32_t* index) noexcept;
#endif

}  // namespace sluice::detail
