// sluice-bench: sizes for people ("64 MiB", "62.5 MiB", "100 KiB", "64 B").
#pragma once

#include <cstdint>
#include <string>

namespace sluice::bench {

inline constexpr double mb = 1e6;  // MB/s in the report: 10^6 bytes per second

// Binary units; a whole number when exact, else one decimal.
std::string format_size(std::uint64_t bytes);

}  // namespace sluice::bench
