#include "core/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sluice::bench {

std::optional<double> seconds_left(double elapsed, std::size_t done, std::size_t total) {
  if (done == 0) return std::nullopt;
  std::size_t left = total > done ? total - done : 0;
  return elapsed / static_cast<double>(done) * static_cast<double>(left);
}

std::string duration_text(double seconds) {
  long s = static_cast<long>(std::ceil(std::max(seconds, 0.0)));
  char text[48];
  if (s < 60)
    std::snprintf(text, sizeof text, "%ld s", s);
  else if (s < 3600)
    std::snprintf(text, sizeof text, "%ld min %02ld s", s / 60, s % 60);
  else
    std::snprintf(text, sizeof text, "%ld h %02ld min", (s + 59) / 60 / 60, (s + 59) / 60 % 60);
  return text;
}

std::string progress_text(const progress_state& state) {
  char count[48];
  std::snprintf(count, sizeof count, "[%3zu/%zu] ", state.number, state.total);
  std::string start = count + std::string(state.scenario) + ": ";
  std::string end = ", run " + std::to_string(state.run) + " of " + std::to_string(state.runs);
  if (state.left) end += ", about " + duration_text(*state.left) + " left";
  std::string_view method = state.method;
  std::size_t room = progress_width > start.size() + end.size() + 3
                         ? progress_width - start.size() - end.size()
                         : 3;
  if (method.size() <= room) return start + std::string(method) + end;
  return start + std::string(method.substr(0, room - 3)) + "..." + end;
}

progress::progress(std::size_t total_runs)
    : enabled_(::isatty(STDERR_FILENO) == 1),
      total_(total_runs),
      start_(std::chrono::steady_clock::now()) {}

void progress::step(std::string_view scenario, std::string_view method, int run, int runs) {
  std::size_t before = done_++;
  if (!enabled_) return;
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::string text = progress_text(
      {done_, total_, scenario, method, run, runs, seconds_left(elapsed, before, total_)});
  // "\033[K" erases what a longer previous line left.
  std::fprintf(stderr, "\r%s\033[K", text.c_str());
  std::fflush(stderr);
  shown_ = true;
}

void progress::clear() {
  if (!shown_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace sluice::bench
