// sluice-bench: running the methods of a case. Repetitions go round-robin
// (every method once, then every method again...) so that drift on a noisy
// machine hits all methods alike. Each run writes a fresh file, is timed
// from open to close (fdatasync included when asked; what the method
// prepares first is not timed), and its output is
// checked before the figure counts; then, untimed, the filesystem is synced
// so that the next run starts with nothing left to write back. A method that fails or writes wrong
// bytes is run no more and posts no figure.
#pragma once

#include <sluice/writer.hpp>
#include <string>
#include <vector>

#include "core/bench_case.hpp"
#include "core/progress.hpp"
#include "core/work_dir.hpp"

namespace sluice::bench {

struct run_settings {
  int repeat;               // runs per method
  bool sync;                // figures include the final fdatasync
  std::size_t buffer_size;  // sluice writers' buffer; 0: sluice's default
};

struct method_result {
  std::vector<double> seconds;  // one per good run
  std::string error;            // why the method failed, empty if it did not
  std::string observed;         // method::observe after the last good run
};

struct case_result {
  const bench_case* bench;
  std::vector<method_result> methods;  // in the order of bench->methods
};

// The buffer the sluice writers use under `settings`, and those with
// caching_mode::direct (where not fixed by the scenario, as fragment's are).
inline std::size_t sluice_buffer_size(const run_settings& settings) {
  return settings.buffer_size ? settings.buffer_size : sluice::writer_options::default_buffer_size;
}
inline std::size_t sluice_direct_buffer_size(const run_settings& settings) {
  return settings.buffer_size ? settings.buffer_size
                              : sluice::writer_options::default_direct_buffer_size;
}

case_result run_case(const bench_case& bench, const work_dir& dir, const run_settings& settings,
                     progress& status);

}  // namespace sluice::bench
