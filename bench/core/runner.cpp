#include "core/runner.hpp"

#include <unistd.h>

#include <exception>

#include "core/output_check.hpp"
#include "core/timing.hpp"

namespace sluice::bench {
namespace {

// One timed run of `m`, then the check of its output. Throws on failure.
double run_once(const bench_case& bench, const method& m, const work_dir& dir,
                const run_settings& settings, output_check& check, method_result& result) {
  target t{dir.output(), dir.companion(), dir.input(), settings.sync, settings.buffer_size};
  if (m.prepare) {
    m.prepare(t);
    dir.settle();
  }
  double seconds = seconds_of([&] { m.run(t); });
  if (m.observe) result.observed = m.observe(t);
  if (bench.same_bytes) check.check(m.name, bench.written > bench.bytes);
  dir.remove_output();  // the companion, if the run wrote one
  dir.settle();
  return seconds;
}

// The case's input file, written (if the case has one) for its lifetime.
class case_input {
 public:
  case_input(const bench_case& bench, const work_dir& dir) : dir_(dir) {
    if (!bench.make_input) return;
    bench.make_input(dir.input());
    dir.settle();
  }
  case_input(const case_input&) = delete;
  case_input& operator=(const case_input&) = delete;
  ~case_input() { ::unlink(dir_.input()); }

 private:
  const work_dir& dir_;
};

}  // namespace

case_result run_case(const bench_case& bench, const work_dir& dir, const run_settings& settings,
                     progress& status) {
  case_result result{&bench, std::vector<method_result>(bench.methods.size())};
  case_input input(bench, dir);
  output_check check(dir, bench.bytes);
  for (int rep = 0; rep < settings.repeat; ++rep) {
    for (std::size_t i = 0; i < bench.methods.size(); ++i) {
      const method& m = bench.methods[i];
      method_result& r = result.methods[i];
      status.step(bench.scenario + ": " + m.name);
      if (!r.error.empty()) continue;
      try {
        r.seconds.push_back(run_once(bench, m, dir, settings, check, r));
      } catch (const std::exception& e) {
        dir.remove_output();
        r.error = e.what();
      }
    }
  }
  return result;
}

}  // namespace sluice::bench
