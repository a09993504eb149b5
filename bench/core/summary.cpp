#include "core/summary.hpp"

#include <algorithm>

#include "core/timing.hpp"
#include "core/units.hpp"

namespace sluice::bench {
namespace {

row figures_of(const bench_case& bench, std::size_t i, const method_result& result) {
  row r{&bench.methods[i], &result, {}, {}, {}, {}};
  if (!result.error.empty() || result.seconds.empty()) return r;
  r.median_seconds = median(result.seconds);
  r.mb_per_s = static_cast<double>(measured_bytes(bench)) / *r.median_seconds / mb;
  return r;
}

// The fastest MB/s among the rows of role `kind` (and of `group`, unless it
// is 0), if any has a figure.
std::optional<double> fastest(const std::vector<row>& rows, role kind, int group = 0) {
  std::optional<double> best;
  for (const row& r : rows)
    if (r.m->kind == kind && r.mb_per_s && (group == 0 || r.m->group == group))
      best = std::max(best.value_or(0), *r.mb_per_s);
  return best;
}

std::optional<double> ratio(const std::optional<double>& value, const std::optional<double>& base) {
  if (!value || !base) return std::nullopt;
  return *value / *base;
}

}  // namespace

case_summary summarize(const case_result& result) {
  case_summary summary{result.bench, {}, result.input_left_cached};
  for (std::size_t i = 0; i < result.methods.size(); ++i)
    summary.rows.push_back(figures_of(*result.bench, i, result.methods[i]));
  std::optional<double> limit = fastest(summary.rows, role::limit);
  for (row& r : summary.rows) {
    r.vs_best_peer = ratio(r.mb_per_s, fastest(summary.rows, role::peer, r.m->group));
    r.vs_limit = ratio(r.mb_per_s, limit);
  }
  return summary;
}

}  // namespace sluice::bench
