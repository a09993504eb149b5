// sluice-bench: the clock and the statistic of the report.
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

namespace sluice::bench {

// Seconds that run() takes, on the steady clock.
template <class Run>
double seconds_of(Run&& run) {
  auto start = std::chrono::steady_clock::now();
  run();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The middle value; the mean of the two middle ones for an even count.
// `values` must not be empty.
inline double median(std::vector<double> values) {
  auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  if (values.size() % 2 == 1) return *middle;
  return (*middle + *std::max_element(values.begin(), middle)) / 2;
}

}  // namespace sluice::bench
