// sluice-bench: the deterministic bytes the bytes, gather and large
// scenarios write: lines of 63 printable characters and a '\n', shifted by
// one character per line, repeating every pattern_period bytes; and the
// pseudo-random numbers and bytes of the reading scenarios' inputs, which
// do not repeat, so that a method reading the wrong place computes another
// result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/bench_case.hpp"

namespace sluice::bench {

inline constexpr std::size_t pattern_period = 4096;  // a power of two: index with a mask

// The pattern_period bytes of one period.
const char* pattern();

// The first `size` bytes of the endless pattern.
std::vector<char> pattern_bytes(std::size_t size);

// A deterministic stream of 64-bit pseudo-random numbers (splitmix64): the
// same from the same seed on every machine.
class random_stream {
 public:
  explicit random_stream(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() noexcept {
    std::uint64_t z = state_ += 0x9E3779B97F4A7C15u;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
  }
  // A number from 0 to bound - 1 (bound > 0; the slight bias is harmless here).
  std::uint64_t below(std::uint64_t bound) noexcept { return next() % bound; }

 private:
  std::uint64_t state_;
};

// The maker of an input of `size` pseudo-random bytes (random_stream from
// seed 1), written 1 MiB at a time: the same on every machine.
input_maker random_input(std::uint64_t size);

}  // namespace sluice::bench
