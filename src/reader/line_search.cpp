#include "reader/line_search.hpp"

#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace sluice::detail {
namespace {

using scan_function = std::size_t (*)(const std::byte*, const std::byte*, const std::byte*,
                                      std::uint32_t*) noexcept;

// Bits of the bytes of a block before `limit`.
std::uint64_t before_limit(const std::byte* block, const std::byte* limit) noexcept {
  auto left = static_cast<std::size_t>(limit - block);
  return left >= newline_block_size ? ~std::uint64_t{0} : (std::uint64_t{1} << left) - 1;
}

// Newlines a block commonly holds at most: their offsets are written
// without a branch on the count (a branch that lines of random length make
// unpredictable); a block with more takes one more, rarely taken, loop.
// Two measured 6% faster than four and 4% faster than three on lines of 0
// to 160 bytes (docs/performance.md, "read_line: an index of newlines").
constexpr int common_newlines = 2;
static_assert(newline_index_capacity >= newline_stretch + 2 * common_newlines);

// Trailing zeros of `bits`, whatever they are for 0 (the entries written
// then mean nothing): without the branch on zero the compiler puts around
// std::countr_zero (measured 22% slower on lines of random length). The
// top bit set keeps __builtin_ctzll defined; with BMI, tzcnt is defined
// for 0 and needs no such bit.
struct plain_zeros {
  static std::uint32_t of(std::uint64_t bits) noexcept {
    return static_cast<std::uint32_t>(__builtin_ctzll(bits | (1ULL << 63)));
  }
};
#if defined(__x86_64__)
struct tzcnt_zeros {
  __attribute__((target("bmi"))) static std::uint32_t of(std::uint64_t bits) noexcept {
    return static_cast<std::uint32_t>(_tzcnt_u64(bits));
  }
};
#endif

// The offsets of the set bits of `bits`, plus `base`, from `out`: those of
// a block with more than common_newlines newlines past the first ones. Out
// of line, so that the common path keeps no registers for it.
__attribute__((cold, noinline)) void append_rest(std::uint64_t bits, std::uint32_t base,
                                                 std::uint32_t* out) noexcept {
  for (; bits != 0; bits &= bits - 1)
    *out++ = base + static_cast<std::uint32_t>(__builtin_ctzll(bits));
}

// Writes the offsets of the set bits of `bits`, plus `base`, from `out`;
// returns the end of those written. Writes common_newlines entries
// whatever the count.
template <class Zeros>
__attribute__((always_inline)) inline std::uint32_t* append_offsets(std::uint64_t bits,
                                                                    std::uint32_t base,
                                                                    std::uint32_t* out) noexcept {
  auto count = static_cast<std::size_t>(__builtin_popcountll(bits));
  for (int k = 0; k < common_newlines; ++k) {
    out[k] = base + Zeros::of(bits);
    bits &= bits - 1;
  }
  if (count > common_newlines) [[unlikely]]
    append_rest(bits, base, out + common_newlines);
  return out + count;
}

// The loop every variant shares: `mask` gives one block's newline bits.
// Always inlined, so that each variant's loop is compiled for its target
// and its mask inlined into it. The first block's bits before `from` and
// the last one's from `limit` on are cleared outside the loop, whose body
// is the mask, the offsets and two counters.
template <class Zeros, class Mask>
__attribute__((always_inline)) inline std::size_t index_with(const std::byte* block,
                                                             const std::byte* from,
                                                             const std::byte* limit,
                                                             std::uint32_t* index,
                                                             Mask mask) noexcept {
  if (from >= limit) return 0;
  auto blocks_before_last = static_cast<std::size_t>(limit - block - 1) / newline_block_size;
  const std::byte* last = block + blocks_before_last * newline_block_size;
  std::uint64_t bits = mask(block) & (~std::uint64_t{0} << (from - block));
  std::uint32_t* out = index;
  std::uint32_t base = 0;
  for (; block != last; block += newline_block_size, base += newline_block_size) {
    out = append_offsets<Zeros>(bits, base, out);
    bits = mask(block + newline_block_size);
  }
  out = append_offsets<Zeros>(bits & before_limit(block, limit), base, out);
  return static_cast<std::size_t>(out - index);
}

// Eight bytes at a time: a byte equal to '\n' becomes 0 after the xor, and
// the arithmetic below sets the top bit of exactly those bytes (no carry
// crosses bytes, unlike the shorter has-zero-byte test).
std::uint64_t portable_mask(const std::byte* block) noexcept {
  constexpr std::uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL;
  constexpr std::uint64_t newlines = 0x0a0a0a0a0a0a0a0aULL;
  std::uint64_t bits = 0;
  for (std::size_t word = 0; word < newline_block_size / 8; ++word) {
    std::uint64_t v;
    std::memcpy(&v, block + 8 * word, 8);
    v ^= newlines;
    std::uint64_t zero = ~(((v & low7) + low7) | v | low7);  // 0x80 where the byte is 0
    // Gather the eight top bits into one byte (little-endian byte order).
    std::uint64_t packed = ((zero >> 7) * 0x0102040810204080ULL) >> 56;
    bits |= packed << (8 * word);
  }
  return bits;
}

#if defined(__x86_64__)
std::uint64_t sse2_mask(const std::byte* block) noexcept {
  const __m128i newline = _mm_set1_epi8('\n');
  std::uint64_t bits = 0;
  for (int i = 0; i < 4; ++i) {
    __m128i v = _mm_load_si128(reinterpret_cast<const __m128i*>(block + 16 * i));
    auto m = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, newline)));
    bits |= std::uint64_t{m} << (16 * i);
  }
  return bits;
}

__attribute__((target("avx2"))) std::uint64_t avx2_mask(const std::byte* block) noexcept {
  const __m256i newline = _mm256_set1_epi8('\n');
  __m256i lo = _mm256_load_si256(reinterpret_cast<const __m256i*>(block));
  __m256i hi = _mm256_load_si256(reinterpret_cast<const __m256i*>(block + 32));
  auto l = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, newline)));
  auto h = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, newline)));
  return std::uint64_t{l} | (std::uint64_t{h} << 32);
}

// One compare into a mask register: four instructions a block fewer than
// AVX2's two compares and the joining of their masks.
__attribute__((target("avx512bw"))) std::uint64_t avx512_mask(const std::byte* block) noexcept {
  return _mm512_cmpeq_epi8_mask(_mm512_load_si512(block), _mm512_set1_epi8('\n'));
}
#endif

struct choice {
  scan_function scan;
  const char* name;
};

choice choose() noexcept {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512bw")) return {index_newlines_avx512, "avx512"};
  if (__builtin_cpu_supports("avx2")) return {index_newlines_avx2, "avx2"};
  return {index_newlines_sse2, "sse2"};
#else
  return {index_newlines_portable, "portable"};
#endif
}

const choice& chosen() noexcept {
  static const choice once = choose();
  return once;
}

}  // namespace

std::size_t index_newlines_portable(const std::byte* block, const std::byte* from,
                                    const std::byte* limit, std::uint32_t* index) noexcept {
  return index_with<plain_zeros>(block, from, limit, index, portable_mask);
}

#if defined(__x86_64__)
std::size_t index_newlines_sse2(const std::byte* block, const std::byte* from,
                                const std::byte* limit, std::uint32_t* index) noexcept {
  return index_with<plain_zeros>(block, from, limit, index, sse2_mask);
}

__attribute__((target("avx2,popcnt,bmi"))) std::size_t index_newlines_avx2(
    const std::byte* block, const std::byte* from, const std::byte* limit,
    std::uint32_t* index) noexcept {
  return index_with<tzcnt_zeros>(block, from, limit, index, avx2_mask);
}

__attribute__((target("avx512bw,popcnt,bmi"))) std::size_t index_newlines_avx512(
    const std::byte* block, const std::byte* from, const std::byte* limit,
    std::uint32_t* index) noexcept {
  return index_with<tzcnt_zeros>(block, from, limit, index, avx512_mask);
}
#endif

std::size_t index_newlines(const std::byte* block, const std::byte* from, const std::byte* limit,
                           std::uint32_t* index) noexcept {
  return chosen().scan(block, from, limit, index);
}

const char* newline_scan_name() noexcept { return chosen().name; }

}  // namespace sluice::detail
