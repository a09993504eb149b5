#include "core/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace sluice::bench {

progress::progress(std::size_t total_runs)
    : enabled_(::isatty(STDERR_FILENO) == 1), total_(total_runs) {}

void progress::step(std::string_view label) {
  ++done_;
  if (!enabled_) return;
  // "\033[K" erases what a longer previous label left on the line.
  std::fprintf(stderr, "\r[%3zu/%zu] %.*s\033[K", done_, total_, static_cast<int>(label.size()),
               label.data());
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
