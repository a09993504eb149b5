// Finding newlines at memory speed: what is buffered is scanned once, 64
// bytes at a time, into one bit per byte (set where the byte is '\n'), and
// read_line walks those words: a short line costs a bit scan, not a call to
// memchr. The scan is chosen once, at the first call, for the CPU the
// program runs on.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sluice::detail {

// Blocks are aligned to this in the reader's buffer, which holds this many
// bytes of padding after its capacity so that a block is always whole.
inline constexpr std::size_t newline_block_size = 64;

// Writes the newlines of each block from `block` (aligned to
// newline_block_size) up to `limit` into masks[0], masks[1]...: bit i of
// masks[k] is set if block[64 * k + i] == '\n'; bits at or past `limit` are
// clear. Reads whole blocks: up to 63 bytes past `limit`, which must be
// readable. Nothing if block >= limit.
void scan_newlines(const std::byte* block, const std::byte* limit, std::uint64_t* masks) noexcept;

// Which scan scan_newlines() uses on this CPU: "avx2", "sse2" or "portable".
const char* newline_scan_name() noexcept;

// The scans themselves, for tests that compare them on one input; only
// those this CPU can run may be called (newline_scan_name() says the best).
void scan_newlines_portable(const std::byte* block, const std::byte* limit,
                            std::uint64_t* masks) noexcept;
#if defined(__x86_64__)
void scan_newlines_sse2(const std::byte* block, const std::byte* limit,
                        std::uint64_t* masks) noexcept;
void scan_newlines_avx2(const std::byte* block, const std::byte* limit,
                        std::uint64_t* masks) noexcept;
#endif

}  // namespace sluice::detail
