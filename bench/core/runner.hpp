// sluice-bench: running the methods of a case. Repetitions go round-robin
// (every method once, then every method again...) so that drift on a noisy
// machine hits all methods alike. Each run writes a fresh file, is timed
// from open to close (fdatasync included when asked; what the method
// prepares first is not timed), and its output is
// checked before the figure counts; then, untimed, the filesystem is synced
// so that the next run starts with nothing left to write back. In a reading
// case, each run reads the case's input (put in place untimed, and dropped
// from the page cache before each run of a cold case) and its result must
// equal the first good run's. A method that fails, writes wrong bytes or
// computes another result is run no more and posts no figure.
#pragma once

#include <sluice/reader.hpp>
#include <sluice/writer.hpp>
#include <string>
#include <vector>

#include "core/bench_case.hpp"
#include "core/case_input.hpp"
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
  // A cold case: the most of its input the filesystem kept cached after a
  // drop (tmpfs: all of it), so that the report can say the figures are
  // not cold.
  std::uint64_t input_left_cached = 0;
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
// The buffer of the sluice readers of the reading scenarios.
inline std::size_t sluice_reader_buffer_size(const run_settings& settings) {
  return settings.buffer_size ? settings.buffer_size : sluice::reader_options::default_buffer_size;
}

// Runs `bench` in `dir`, its input (if any) put in place through `input`,
// which keeps it for the next case with the same maker. Throws only what
// putting the input in place throws; a method's failure is in its result.
case_result run_case(const bench_case& bench, const work_dir& dir, const run_settings& settings,
                     case_input& input, progress& status);

}  // namespace sluice::bench
