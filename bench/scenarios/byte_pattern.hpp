// sluice-bench "bytes": the loop every row of the scenario runs.
#pragma once

#include <cstdint>

#include "core/content.hpp"

namespace sluice::bench {

// Calls put(c) for each of the first `size` bytes of the pattern. Inlined
// into every method, so that all of them pay the same to produce a byte.
template <class Put>
void put_each(std::uint64_t size, Put&& put) {
  const char* period = pattern();
  for (std::uint64_t i = 0; i < size; ++i) put(period[i & (pattern_period - 1)]);
}

}  // namespace sluice::bench
