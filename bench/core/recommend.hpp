// sluice-bench --recommend: from the tables just measured, which of
// sluice's options were faster on this disk than its defaults, and how
// sure that is.
//
// The rows it reads are tuning rows (bench_case.hpp: the tune scenario's,
// and the journal's with 16 threads): per table and group, one baseline
// with sluice's defaults and rows that set one option each. For each
// option, the fastest of its rows (by median) is recommended when it beats
// the baseline by at least `least_gain` and clearly: its slowest run faster
// than the baseline's fastest. Otherwise the default stays, and the report
// says why.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "core/summary.hpp"

namespace sluice::bench {

// MB/s over the runs of one row: the slowest, the median's and the fastest.
struct speed_range {
  double slowest = 0, median = 0, fastest = 0;
};

// One option's verdict.
struct option_verdict {
  std::string options;     // "writer_options", "journal_options"
  std::string field;       // "buffer_size"
  std::string assignment;  // the fastest row's: "buffer_size = 1 << 20"
  std::string table;       // the case's title
  speed_range best;        // that row's runs
  speed_range baseline;    // the defaults' runs
  bool recommended = false;
  double gain() const { return best.median / baseline.median; }
};

// The smallest gain recommended: below it, a setting is not worth a line.
inline constexpr double least_gain = 1.05;

// A verdict per option that a table of `cases` measures, in the order the
// options first appear (the order of their structs' fields, as the
// scenarios list them). Rows that failed are left out; an option whose
// baseline failed gets no verdict.
std::vector<option_verdict> judge(const std::vector<case_summary>& cases);

// The recommended options as ready-to-paste initializers, one per struct,
// each line with its gain and the runs' spread; then the options left at
// their defaults and why. Prints nothing when `verdicts` is empty.
void print_recommendation(std::ostream& out, const std::vector<option_verdict>& verdicts);

}  // namespace sluice::bench
