// CRC32C: the SSE4.2 instruction when present (chosen once, at first use),
// else slice-by-8 tables built at compile time.
#include "journal/crc32c.hpp"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace sluice::detail {
namespace {

constexpr std::uint32_t polynomial = 0x82F63B78u;  // Castagnoli, reflected

constexpr std::array<std::array<std::uint32_t, 256>, 8> make_tables() {
  std::array<std::array<std::uint32_t, 256>, 8> tables{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t crc = i;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1) ? polynomial : 0);
    tables[0][i] = crc;
  }
  for (std::size_t t = 1; t < 8; ++t)
    for (std::size_t i = 0; i < 256; ++i)
      tables[t][i] = (tables[t - 1][i] >> 8) ^ tables[0][tables[t - 1][i] & 0xFF];
  return tables;
}

constexpr auto tables = make_tables();

std::uint32_t extend_bytes(std::uint32_t crc, const unsigned char* p, std::size_t n) noexcept {
  while (n-- > 0) crc = (crc >> 8) ^ tables[0][(crc ^ *p++) & 0xFF];
  return crc;
}

std::uint32_t extend_table(std::uint32_t crc, const unsigned char* p, std::size_t n) noexcept {
  while (n >= 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);  // little-endian: x86-64 and aarch64 alike
    word ^= crc;
    crc = tables[7][word & 0xFF] ^ tables[6][(word >> 8) & 0xFF] ^ tables[5][(word >> 16) & 0xFF] ^
          tables[4][(word >> 24) & 0xFF] ^ tables[3][(word >> 32) & 0xFF] ^
          tables[2][(word >> 40) & 0xFF] ^ tables[1][(word >> 48) & 0xFF] ^ tables[0][word >> 56];
    p += 8;
    n -= 8;
  }
  return extend_bytes(crc, p, n);
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) std::uint32_t extend_sse42(std::uint32_t crc,
                                                             const unsigned char* p,
                                                             std::size_t n) noexcept {
  std::uint64_t wide = crc;
  while (n >= 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    wide = _mm_crc32_u64(wide, word);
    p += 8;
    n -= 8;
  }
  auto narrow = static_cast<std::uint32_t>(wide);
  while (n-- > 0) narrow = _mm_crc32_u8(narrow, *p++);
  return narrow;
}

bool has_sse42() noexcept {
  static const bool present = __builtin_cpu_supports("sse4.2");
  return present;
}
#endif

}  // namespace

std::uint32_t crc32c_extend(std::uint32_t state, std::span<const std::byte> bytes) noexcept {
#if defined(__x86_64__)
  if (has_sse42())
    return extend_sse42(state, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
#endif
  return crc32c_extend_by_table(state, bytes);
}

std::uint32_t crc32c_extend_by_table(std::uint32_t state,
                                     std::span<const std::byte> bytes) noexcept {
  return extend_table(state, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
}

}  // namespace sluice::detail
