// sluice-bench run as a child process by the bench tests: its exit and
// what it printed.
#pragma once

#include <string>
#include <vector>

namespace sluice_test {

// What a run of sluice-bench gave: its wait status and standard error.
struct bench_run {
  int status;
  std::string err;
};

// Runs SLUICE_BENCH with `args`, its standard output read and dropped.
bench_run run_bench(const std::vector<std::string>& args);

// Whether `status` (from wait) is an exit with `code`.
bool exited_with(int status, int code);

}  // namespace sluice_test
