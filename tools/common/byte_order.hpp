// The sluice tools: fixed-width values in a record's byte order.
#pragma once

#include <bit>
#include <cstring>

namespace sluice_tools {

// `bits` with its bytes reversed when the records' order (big-endian or
// not) differs from the host's, else as it is: from the records' order to
// the host's, or back. Bits is an unsigned integer of 1, 2, 4 or 8 bytes.
template <class Bits>
constexpr Bits in_record_order(Bits bits, bool big_endian) noexcept {
  if (big_endian == (std::endian::native == std::endian::big)) return bits;
  if constexpr (sizeof(Bits) == 2) return __builtin_bswap16(bits);
  if constexpr (sizeof(Bits) == 4) return __builtin_bswap32(bits);
  if constexpr (sizeof(Bits) == 8) return __builtin_bswap64(bits);
  return bits;
}

// The `Bits`-wide value stored at `at` (which need not be aligned) in the
// records' order, in the host's order. A copy and at most a byte swap.
template <class Bits>
Bits load_bits(const unsigned char* at, bool big_endian) noexcept {
  Bits bits;
  std::memcpy(&bits, at, sizeof bits);
  return in_record_order(bits, big_endian);
}

}  // namespace sluice_tools
