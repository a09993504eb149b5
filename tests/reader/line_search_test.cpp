// The newline scans (src/reader/line_search.hpp): every variant this CPU can
// run writes exactly the masks a byte loop finds, and nothing past the last
// block, over random blocks with newlines at every position and limits at
// every byte; the one chosen is the best the CPU has.
#include "reader/line_search.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using sluice::detail::newline_block_size;
using scan = void (*)(const std::byte*, const std::byte*, std::uint64_t*) noexcept;

// What a scan must write, found a byte at a time: a word per block.
std::vector<std::uint64_t> expected(const std::byte* block, const std::byte* limit) {
  std::vector<std::uint64_t> masks;
  for (; block < limit; block += newline_block_size) {
    std::uint64_t bits = 0;
    for (std::size_t i = 0; i < newline_block_size && block + i < limit; ++i)
      if (block[i] == std::byte{'\n'}) bits |= std::uint64_t{1} << i;
    masks.push_back(bits);
  }
  return masks;
}

std::vector<std::pair<const char*, scan>> scans() {
  std::vector<std::pair<const char*, scan>> all{
      {"portable", sluice::detail::scan_newlines_portable}};
#if defined(__x86_64__)
  all.emplace_back("sse2", sluice::detail::scan_newlines_sse2);
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) all.emplace_back("avx2", sluice::detail::scan_newlines_avx2);
#endif
  all.emplace_back("chosen", sluice::detail::scan_newlines);
  return all;
}

TEST(line_search, every_scan_finds_what_a_byte_loop_finds) {
  constexpr std::size_t size = 16 * newline_block_size;
  auto* memory = static_cast<std::byte*>(std::aligned_alloc(64, size + newline_block_size));
  std::mt19937_64 random(42);
  for (int round = 0; round < 2000; ++round) {
    int density = 1 + static_cast<int>(random() % 300);  // one byte in `density` is a newline
    for (std::size_t i = 0; i < size + newline_block_size; ++i) {
      auto value = static_cast<unsigned char>(random());
      if (static_cast<int>(random() % density) == 0) {
        value = '\n';
      } else if (value == '\n') {
        value = 0x8a;  // '\n' with the top bit set: not a newline
      }
      memory[i] = std::byte{value};
    }
    std::size_t first_block = newline_block_size * (random() % 16);
    std::size_t limit = first_block + 1 + random() % (size - first_block);
    std::vector<std::uint64_t> want = expected(memory + first_block, memory + limit);
    for (auto [name, run] : scans()) {
      std::vector<std::uint64_t> got(want.size() + 1, 0x5a5a);
      run(memory + first_block, memory + limit, got.data());
      ASSERT_EQ(got.back(), 0x5a5au) << name << " wrote past the last block";
      got.pop_back();
      ASSERT_EQ(got, want) << name << " round " << round;
    }
  }
  std::free(memory);
}

TEST(line_search, the_chosen_scan_is_the_best_this_cpu_has) {
  std::string name = sluice::detail::newline_scan_name();
#if defined(__x86_64__)
  __builtin_cpu_init();
  EXPECT_EQ(name, __builtin_cpu_supports("avx2") ? "avx2" : "sse2");
#else
  EXPECT_EQ(name, "portable");
#endif
}

}  // namespace
