// sluice-bench: the figures of a case, for the table and the JSON report.
//
// MB/s is 10^6 bytes per second over the median run, of the bytes the
// case counts (measured_bytes: what a run writes, or a converter's text
// input). "vs best peer" is a
// method's speed over that of the fastest peer of the case (the non-sluice,
// non-limit methods; for a method in a group, the fastest peer of its group:
// in the journal table, with as many committing threads); "vs limit" its
// speed over that of the raw system call
// method, where the case has one. Failed methods have no figures and take
// no part in the ratios.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/runner.hpp"

namespace sluice::bench {

struct row {
  const method* m;
  const method_result* result;
  std::optional<double> median_seconds;  // all empty when the method failed
  std::optional<double> mb_per_s;
  std::optional<double> vs_best_peer;
  std::optional<double> vs_limit;
};

struct case_summary {
  const bench_case* bench;
  std::vector<row> rows;                // in the order of bench->methods
  std::uint64_t input_left_cached = 0;  // case_result::input_left_cached
};

case_summary summarize(const case_result& result);

}  // namespace sluice::bench
