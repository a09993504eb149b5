// The newline scans (src/reader/line_search.hpp): every variant this CPU can
// run indexes exactly the newlines a byte loop finds between a start and a
// limit at every byte, over random stretches with newlines at every
// position, dense and sparse, and writes nothing past the index's room;
// the one chosen is the best the CPU has.
#include "reader/line_search.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <random>
#include <string>
#include <vector>

namespace {

using sluice::detail::newline_block_size;
using sluice::detail::newline_index_capacity;
using sluice::detail::newline_stretch;
using scan = std::size_t (*)(const std::byte*, const std::byte*, const std::byte*,
                             std::uint32_t*) noexcept;

// What a scan must find, a byte at a time: offsets from `block`.
std::vector<std::uint32_t> expected(const std::byte* block, const std::byte* from,
                                    const std::byte* limit) {
  std::vector<std::uint32_t> offsets;
  for (const std::byte* p = from; p < limit; ++p)
    if (*p == std::byte{'\n'}) offsets.push_back(static_cast<std::uint32_t>(p - block));
  return offsets;
}

std::vector<std::pair<const char*, scan>> scans() {
  std::vector<std::pair<const char*, scan>> all{
      {"portable", sluice::detail::index_newlines_portable}};
#if defined(__x86_64__)
  all.emplace_back("sse2", sluice::detail::index_newlines_sse2);
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) all.emplace_back("avx2", sluice::detail::index_newlines_avx2);
  if (__builtin_cpu_supports("avx512bw"))
    all.emplace_back("avx512", sluice::detail::index_newlines_avx512);
#endif
  all.emplace_back("chosen", sluice::detail::index_newlines);
  return all;
}

TEST(line_search, every_scan_finds_what_a_byte_loop_finds) {
  constexpr std::size_t size = newline_stretch;
  // 64-byte aligned, as the reader's buffer is (operator new: aligned_alloc
  // is missing from Windows' C library).
  constexpr std::align_val_t alignment{64};
  auto* memory = static_cast<std::byte*>(::operator new(size + newline_block_size, alignment));
  std::mt19937_64 random(42);
  std::vector<std::uint32_t> index(newline_index_capacity + 1);
  for (int round = 0; round < 3000; ++round) {
    // One byte in `density` is a newline: every byte of some stretches,
    // none of others.
    int density = round % 10 == 0 ? 1 : 1 + static_cast<int>(random() % 300);
    for (std::size_t i = 0; i < size + newline_block_size; ++i) {
      auto value = static_cast<unsigned char>(random());
      if (static_cast<int>(random() % density) == 0) {
        value = '\n';
      } else if (value == '\n') {
        value = 0x8a;  // '\n' with the top bit set: not a newline
      }
      memory[i] = std::byte{value};
    }
    std::size_t block = newline_block_size * (random() % (size / newline_block_size));
    std::size_t from = block + random() % newline_block_size;
    std::size_t limit = std::min(size, from + random() % (size - block + 1));
    if (round % 7 == 0) limit = size;
    std::vector<std::uint32_t> want = expected(memory + block, memory + from, memory + limit);
    for (auto [name, run] : scans()) {
      index.back() = 0x5a5a;
      std::size_t count = run(memory + block, memory + from, memory + limit, index.data());
      ASSERT_EQ(index.back(), 0x5a5au) << name << " wrote past the index's room";
      std::vector<std::uint32_t> got(index.begin(), index.begin() + static_cast<long>(count));
      ASSERT_EQ(got, want) << name << " round " << round << ": from " << from - block << ", limit "
                           << limit - block;
    }
  }
  ::operator delete(memory, alignment);
}

TEST(line_search, the_chosen_scan_is_the_best_this_cpu_has) {
  std::string name = sluice::detail::newline_scan_name();
#if defined(__x86_64__)
  __builtin_cpu_init();
  const char* best = __builtin_cpu_supports("avx512bw") ? "avx512"
                     : __builtin_cpu_supports("avx2")   ? "avx2"
                                                        : "sse2";
  EXPECT_EQ(name, best);
#else
  EXPECT_EQ(name, "portable");
#endif
}

}  // namespace
