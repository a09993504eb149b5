// sluice-bench: a case's chart as SVG, drawn by hand: one horizontal bar
// per method (MB/s of its median run; sluice's bars, the peers' and the
// limits' each in their colour, with a legend), a whisker from its slowest
// to its fastest run, the fastest limit as a dashed line across the bars,
// and an axis in MB/s. Every text (title, names, notes) is escaped for
// XML, so a method named "<script>" shows as such.
//
// The same <svg> element stands alone in a .svg file (--svg) and inline in
// the HTML page (--report): class "chart", its <title> the case's title.
// Costs a few hundred bytes per bar, written through `out`; throws what
// the writer throws.
#pragma once

#include <sluice/writer.hpp>
#include <string>
#include <vector>

#include "core/chart.hpp"

namespace sluice::bench {

// Whether the chart lists the methods that did not run below its bars
// (a standalone .svg), or leaves them to the page around it.
enum class not_run_rows { listed, left_out };

void write_svg_chart(sluice::writer& out, const chart& c, not_run_rows not_run);

// The .svg file name of each case, given the scenario of each case in
// order: "<scenario>.svg" for a scenario of one case,
// "<scenario>-1.svg", "<scenario>-2.svg"... for one of several.
std::vector<std::string> chart_file_names(const std::vector<std::string>& scenario_of_case);

}  // namespace sluice::bench
