// sluice-bench: the report, as tables for people (table.cpp) and as JSON
// for programs (json_report.cpp).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "core/machine.hpp"
#include "core/runner.hpp"
#include "core/summary.hpp"

namespace sluice::bench {

// What a whole run was: where, on what, how.
struct run_description {
  std::string dir;
  machine_info machine;
  run_settings settings;
};

void print_header(std::ostream& out, const run_description& run);
// One table: a row per method, then the methods that were not built in.
void print_table(std::ostream& out, const case_summary& summary);
void print_footer(std::ostream& out, const run_description& run);
// The header, every table, the footer and the recommendation: the text
// printed on a run.
std::string report_text(const run_description& run, const std::vector<case_summary>& cases);

// Every case, method, run time, median, ratio and size, and the machine.
void write_json(std::ostream& out, const run_description& run,
                const std::vector<case_summary>& cases);

}  // namespace sluice::bench
