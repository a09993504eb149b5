// sluice-bench: the deterministic bytes the bytes, gather and large
// scenarios write: lines of 63 printable characters and a '\n', shifted by
// one character per line, repeating every pattern_period bytes.
#pragma once

#include <cstddef>
#include <vector>

namespace sluice::bench {

inline constexpr std::size_t pattern_period = 4096;  // a power of two: index with a mask

// The pattern_period bytes of one period.
const char* pattern();

// The first `size` bytes of the endless pattern.
std::vector<char> pattern_bytes(std::size_t size);

}  // namespace sluice::bench
