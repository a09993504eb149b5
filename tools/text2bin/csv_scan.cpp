#include "text2bin/csv_scan.hpp"

#include <bit>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/last_newline.hpp"

namespace text2bin {
namespace {

constexpr std::size_t block = 64;

// Bit k set where byte k of the 64 at `at` is `c`.
std::uint64_t bits_equal(const char* at, char c) noexcept {
#if defined(__SSE2__)
  const __m128i wanted = _mm_set1_epi8(c);
  std::uint64_t bits = 0;
  for (int i = 0; i < 4; ++i) {
    __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at + 16 * i));
    auto mask = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, wanted)));
    bits |= std::uint64_t{mask} << (16 * i);
  }
  return bits;
#else
  std::uint64_t bits = 0;
  for (std::size_t k = 0; k < block; ++k) bits |= std::uint64_t{at[k] == c} << k;
  return bits;
#endif
}

// Bit k: the parity of the bits 0..k of `bits`.
std::uint64_t prefix_parity(std::uint64_t bits) noexcept {
  for (int shift = 1; shift < 64; shift *= 2) bits ^= bits << shift;
  return bits;
}

// The scan over 64 bytes at `at`: updates `inside` (all ones while inside
// quotes) and returns the line ends outside quotes, a bit each.
std::uint64_t row_ends_in_block(const char* at, std::uint64_t& inside) noexcept {
  std::uint64_t quoted = prefix_parity(bits_equal(at, '"')) ^ inside;
  inside = static_cast<std::uint64_t>(static_cast<std::int64_t>(quoted) >> 63);
  return bits_equal(at, '\n') & ~quoted;
}

}  // namespace

std::size_t last_row_end(std::string_view text) noexcept {
  const char* data = text.data();
  std::size_t size = text.size();
  if (size == 0) return 0;
  if (std::memchr(data, '"', size) == nullptr) {
    const char* line_end = sluice_tools::last_newline(data, size);
    return line_end ? line_end - data + 1 : 0;
  }
  std::uint64_t inside = 0;
  std::size_t end = 0;
  std::size_t at = 0;
  for (; at + block <= size; at += block)
    if (std::uint64_t ends = row_ends_in_block(data + at, inside))
      end = at + block - static_cast<std::size_t>(std::countl_zero(ends));
  if (at == size) return end;
  char tail[block] = {};  // the last bytes, padded with what is neither
  std::memcpy(tail, data + at, size - at);
  if (std::uint64_t ends = row_ends_in_block(tail, inside))
    end = at + block - static_cast<std::size_t>(std::countl_zero(ends));
  return end;
}

std::size_t first_row_end(std::string_view text) noexcept {
  bool inside = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '"') inside = !inside;
    if (text[i] == '\n' && !inside) return i + 1;
  }
  return std::string_view::npos;
}

}  // namespace text2bin
