// sluice-bench: running the methods of a case. Repetitions go round-robin
// (every method once, then every method again...) so that drift on a noisy
// machine hits all methods alike. Each run writes a fresh file, is timed
// from open to close (fdatasync included when asked), and its output is
// checked before the figure counts. A method that fails or writes wrong
// bytes is run no more and posts no figure.
#pragma once

#include <string>
#include <vector>

#include "bench_case.hpp"
#include "progress.hpp"
#include "work_dir.hpp"

namespace sluice::bench {

struct run_settings {
  int repeat;  // runs per method
  bool sync;   // figures include the final fdatasync
};

struct method_result {
  std::vector<double> seconds;  // one per good run
  std::string error;            // why the method failed, empty if it did not
};

struct case_result {
  const bench_case* bench;
  std::vector<method_result> methods;  // in the order of bench->methods
};

case_result run_case(const bench_case& bench, const work_dir& dir, const run_settings& settings,
                     progress& status);

}  // namespace sluice::bench
