// sluice-bench: one status line on stderr, rewritten in place with '\r',
// shown only when stderr is a terminal so that logs and pipes stay clean:
// the run about to start, its scenario and method, and the time the runs
// left should take, from the ones done so far:
//   [ 12/95] bytes: fwrite, run 2 of 5, about 40 s left
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace sluice::bench {

class progress {
 public:
  explicit progress(std::size_t total_runs);
  // Run `run` (from 1) of `runs` of `method` of `scenario` is next.
  void step(std::string_view scenario, std::string_view method, int run, int runs);
  void clear();  // erases the line, if shown

 private:
  bool enabled_;
  bool shown_ = false;
  std::size_t done_ = 0;
  std::size_t total_;
  std::chrono::steady_clock::time_point start_;
};

// The seconds the runs left (`total` - `done`) should take if each takes
// as long as the `done` ones did, in `elapsed` seconds all told; empty
// before the first is done.
std::optional<double> seconds_left(double elapsed, std::size_t done, std::size_t total);

// A time left, rounded up: "40 s", "3 min 05 s", "1 h 02 min".
std::string duration_text(double seconds);

// What the line says before a run.
struct progress_state {
  std::size_t number;  // of this run, from 1, among all
  std::size_t total;
  std::string_view scenario;
  std::string_view method;
  int run;  // of this method, from 1
  int runs;
  std::optional<double> left;  // seconds_left()
};

// The most characters progress_text() gives, so that the line fits in an
// 80-column terminal (a wrapped line could not be redrawn in place).
inline constexpr std::size_t progress_width = 79;

// "[ 12/95] bytes: fwrite, run 2 of 5, about 40 s left" (without the time
// before it is known), the method's name cut ("...") where the whole would
// be longer than progress_width.
std::string progress_text(const progress_state& state);

}  // namespace sluice::bench
