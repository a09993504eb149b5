// fork_generation and watch_forks on POSIX: a pthread_atfork handler counts
// the forks in each child.
#include <pthread.h>

#include <atomic>
#include <mutex>
#include <system_error>

#include "journal/state.hpp"

namespace sluice::detail {
namespace {

std::atomic<unsigned> forks_seen{0};

void count_fork_in_child() { forks_seen.fetch_add(1, std::memory_order_relaxed); }

}  // namespace

unsigned fork_generation() noexcept { return forks_seen.load(std::memory_order_relaxed); }

void watch_forks() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    if (int error = ::pthread_atfork(nullptr, nullptr, count_fork_in_child))
      throw std::system_error(error, std::generic_category(), "sluice: pthread_atfork");
  });
}

}  // namespace sluice::detail
