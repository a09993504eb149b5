// CRC32C (Castagnoli), the checksum of the journal's headers and records.
// Why CRC32C and not a hash library: docs/journal-format.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace sluice::detail {

// Continues a CRC32C over `bytes`. Start with crc32c_init, finish with
// crc32c_finish: crc32c_finish(crc32c_extend(crc32c_init, data)) is the
// standard CRC32C of data (0xE3069283 for "123456789"). Uses the SSE4.2
// crc32 instruction when the CPU has it, a table otherwise. No allocation.
std::uint32_t crc32c_extend(std::uint32_t state, std::span<const std::byte> bytes) noexcept;

// The same with the tables alone, whatever the CPU: what crc32c_extend
// does where SSE4.2 is missing, callable on any machine so that tests
// check both ways.
std::uint32_t crc32c_extend_by_table(std::uint32_t state,
                                     std::span<const std::byte> bytes) noexcept;

inline constexpr std::uint32_t crc32c_init = 0xFFFFFFFFu;
inline constexpr std::uint32_t crc32c_finish(std::uint32_t state) noexcept { return ~state; }

// The CRC32C of `bytes` in one call.
inline std::uint32_t crc32c(std::span<const std::byte> bytes) noexcept {
  return crc32c_finish(crc32c_extend(crc32c_init, bytes));
}

}  // namespace sluice::detail
