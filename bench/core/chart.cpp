#include "core/chart.hpp"

#include <algorithm>

#include "core/units.hpp"

namespace sluice::bench {
namespace {

chart_bar bar_of(const case_summary& summary, const row& r) {
  const std::vector<double>& seconds = r.result->seconds;
  auto [fastest, slowest] = std::minmax_element(seconds.begin(), seconds.end());
  double bytes = static_cast<double>(measured_bytes(*summary.bench));
  return {display_name(*r.m),    r.m->kind,     *r.mb_per_s, bytes / *slowest / mb,
          bytes / *fastest / mb, seconds.size()};
}

}  // namespace

chart chart_of(const case_summary& summary) {
  chart c{summary.bench->title, {}, {}, {}};
  for (const row& r : summary.rows) {
    if (r.mb_per_s) {
      c.bars.push_back(bar_of(summary, r));
      if (r.m->kind == role::limit) c.limit = std::max(c.limit.value_or(0), *r.mb_per_s);
    } else {
      c.not_run.push_back(display_name(*r.m) + ": failed: " + r.result->error);
    }
  }
  for (const std::string& note : summary.bench->skipped) c.not_run.push_back(note);
  return c;
}

}  // namespace sluice::bench
