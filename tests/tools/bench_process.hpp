// sluice-bench run as a child process by the bench tests: its exit and
// what it printed.
#pragma once

#include <string>
#include <vector>

#include "tool_run.hpp"  // exited_with

namespace sluice_test {

// What a run of sluice-bench gave: its wait status and standard error.
struct bench_run {
  int status;
  std::string err;
};

// Runs SLUICE_BENCH with `args` (run_tool: standard input /dev/null, at
// most 280 s), its standard output read and dropped.
bench_run run_bench(const std::vector<std::string>& args);

}  // namespace sluice_test
