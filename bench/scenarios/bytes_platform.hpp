// sluice-bench "bytes": the rows one platform adds. bytes_platform.cpp
// (glibc: none, its unlocked calls are in the common rows);
// bytes_platform_win32.cpp (the UCRT's _fwrite_nolock).
#pragma once

#include <cstdint>

#include "core/bench_case.hpp"

namespace sluice::bench {

// Adds this platform's own rows to the bytes case `c` of `size` bytes.
void add_platform_bytes_rows(bench_case& c, std::uint64_t size);

}  // namespace sluice::bench
