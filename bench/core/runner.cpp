#include "core/runner.hpp"

#include <algorithm>
#include <exception>

#include "core/output_check.hpp"
#include "core/result_check.hpp"
#include "core/timing.hpp"

namespace sluice::bench {
namespace {

// The runs of one case, and the checks their outputs and results pass.
class case_runs {
 public:
  case_runs(const bench_case& bench, const work_dir& dir, const run_settings& settings,
            case_input& input)
      : bench_(bench),
        dir_(dir),
        settings_(settings),
        input_(input),
        output_(dir, bench.bytes),
        result_{&bench, std::vector<method_result>(bench.methods.size())} {}

  // One timed run of method `i`, then the check of its output or result.
  // Throws on failure.
  void run_once(std::size_t i) {
    const method& m = bench_.methods[i];
    method_result& r = result_.methods[i];
    target t{dir_.output(), dir_.companion(), dir_.input(), settings_.sync, settings_.buffer_size};
    prepare(m, t);
    std::string answer;
    double seconds = seconds_of([&] {
      if (m.read)
        answer = m.read(t);
      else
        m.run(t);
    });
    if (m.observe) r.observed = m.observe(t);
    if (m.read)
      answers_.check(m.name, std::move(answer));
    else if (bench_.same_bytes)
      output_.check(m.name, bench_.written > bench_.bytes);
    dir_.remove_output();  // the companion, if the run wrote one
    dir_.settle();
    r.seconds.push_back(seconds);
  }

  case_result& result() { return result_; }

 private:
  // Untimed: what the method starts from, and a cold input dropped from the
  // page cache.
  void prepare(const method& m, const target& t) {
    if (m.prepare) {
      m.prepare(t);
      dir_.settle();
    }
    if (bench_.input && bench_.input_state == input_cache::cold)
      result_.input_left_cached = std::max(result_.input_left_cached, input_.drop());
  }

  const bench_case& bench_;
  const work_dir& dir_;
  const run_settings& settings_;
  case_input& input_;
  output_check output_;
  result_check answers_;
  case_result result_;
};

}  // namespace

case_result run_case(const bench_case& bench, const work_dir& dir, const run_settings& settings,
                     case_input& input, progress& status) {
  input.provide(bench);
  case_runs runs(bench, dir, settings, input);
  for (int rep = 0; rep < settings.repeat; ++rep) {
    for (std::size_t i = 0; i < bench.methods.size(); ++i) {
      method_result& r = runs.result().methods[i];
      status.step(bench.scenario, bench.methods[i].name, rep + 1, settings.repeat);
      if (!r.error.empty()) continue;
      try {
        runs.run_once(i);
      } catch (const std::exception& e) {
        dir.remove_output();
        r.error = e.what();
      }
    }
  }
  return runs.result();
}

}  // namespace sluice::bench
