// sluice-bench: the report as one self-contained HTML page (--report):
// the machine, the command as typed, a chart per case (svg_chart.hpp,
// inline) with the methods that did not run listed under it, and the text
// tables as the terminal showed them. No script, no stylesheet or font
// from elsewhere: the file alone shows everything, offline. Every text is
// escaped. Written through `out`; throws what the writer throws.
#pragma once

#include <sluice/writer.hpp>
#include <string>
#include <vector>

#include "core/report.hpp"

namespace sluice::bench {

struct html_page {
  const run_description& run;
  const std::vector<case_summary>& cases;
  std::string command;  // the command line, as a shell would take it back
  std::string text;     // the report's text: header, tables, footer
};

void write_html_report(sluice::writer& out, const html_page& page);

}  // namespace sluice::bench
