// sluice-bench: the input file a case's methods read (bench_case::input), in
// the work directory: written, untimed, when a case needs one other than
// the file in place, shared by the cases that follow with the same maker,
// dropped from the page cache before each run of a cold case and read back
// into it for a cached case that follows one.
#pragma once

#include <cstdint>

#include "core/bench_case.hpp"
#include "core/work_dir.hpp"

namespace sluice::bench {

class case_input {
 public:
  explicit case_input(const work_dir& dir) : dir_(dir) {}
  case_input(const case_input&) = delete;
  case_input& operator=(const case_input&) = delete;
  ~case_input();  // removes the input

  // Puts the input of `bench` in place at dir.input(): nothing if it is
  // there already (the case before had the same maker), else removes the
  // old one, writes the new one and syncs the filesystem. For a cached case,
  // reads the file back into the page cache if a cold run dropped it. A
  // case without an input only removes the old one. Throws what the maker
  // or a read throws.
  void provide(const bench_case& bench);

  // Drops the input from the page cache (drop_from_page_cache) and returns
  // how many of its bytes are cached all the same (tmpfs keeps them all).
  // Throws std::system_error.
  std::uint64_t drop();

 private:
  void remove() noexcept;

  const work_dir& dir_;
  input_maker current_;   // the maker of the file in place; empty: none
  bool dropped_ = false;  // a cold run dropped it since it was written or read
};

}  // namespace sluice::bench
