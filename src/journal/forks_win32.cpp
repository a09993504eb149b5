// fork_generation and watch_forks on Windows: a process has no fork(), so
// no copy of a journal ever lands in a child; the count stays 0.
#include "journal/state.hpp"

namespace sluice::detail {

unsigned fork_generation() noexcept { return 0; }

void watch_forks() {}

}  // namespace sluice::detail
