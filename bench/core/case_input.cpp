#include "core/case_input.hpp"

#include <cstdio>

#include "core/page_cache.hpp"

namespace sluice::bench {

case_input::~case_input() { remove(); }

void case_input::remove() noexcept {
  if (!current_) return;
  std::remove(dir_.input());
  current_.reset();
}

void case_input::provide(const bench_case& bench) {
  if (bench.input != current_) {
    remove();
    if (!bench.input) return;
    try {
      (*bench.input)(dir_.input());
    } catch (...) {
      std::remove(dir_.input());
      throw;
    }
    current_ = bench.input;
    dropped_ = false;
    dir_.settle();
  }
  if (bench.input_state == input_cache::cached && dropped_) {
    load_into_page_cache(dir_.input());
    dropped_ = false;
  }
}

std::uint64_t case_input::drop() {
  dropped_ = true;
  drop_from_page_cache(dir_.input());
  return cached_bytes(dir_.input());
}

}  // namespace sluice::bench
