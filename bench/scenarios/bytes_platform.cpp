#include "scenarios/bytes_platform.hpp"

namespace sluice::bench {

void add_platform_bytes_rows(bench_case&, std::uint64_t) {}

}  // namespace sluice::bench
