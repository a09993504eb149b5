// sluice-bench: what a case's chart shows, taken from its summary: a bar
// per method that posted a figure (its median MB/s, and the slowest and
// fastest of its runs), the fastest limit, and a line per method that did
// not run (failed, or not built in). Pure data: svg_chart.cpp draws it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/bench_case.hpp"
#include "core/summary.hpp"

namespace sluice::bench {

struct chart_bar {
  std::string name;  // display_name(): the limit marked "[limit]"
  role kind;
  double median;  // MB/s of the median run
  double low;     // MB/s of the slowest run
  double high;    // MB/s of the fastest run
  std::size_t runs;
};

struct chart {
  std::string title;  // the case's title, as its table shows it
  std::vector<chart_bar> bars;
  std::optional<double> limit;       // MB/s of the fastest limit, if one ran
  std::vector<std::string> not_run;  // "name: failed: why", and the skipped notes
};

// The chart of `summary`, bars in the order of its rows.
chart chart_of(const case_summary& summary);

}  // namespace sluice::bench
