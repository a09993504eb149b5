// sluice-bench: the check that keeps a broken method from posting a figure.
// Every run's output must have the case's size and the very bytes of the
// case's first good output, which is kept as the reference until the case
// ends.
#pragma once

#include <cstdint>
#include <string>

#include "core/work_dir.hpp"

namespace sluice::bench {

class output_check {
 public:
  output_check(const work_dir& dir, std::uint64_t expected_size);
  output_check(const output_check&) = delete;
  output_check& operator=(const output_check&) = delete;
  ~output_check();  // removes the reference

  // Checks the output `method` has just written, and with `with_companion`
  // its companion, which must hold the same bytes; then removes the output
  // or keeps it as the reference. Throws std::runtime_error saying what is
  // wrong.
  void check(const std::string& method, bool with_companion);

 private:
  const work_dir& dir_;
  std::uint64_t expected_size_;
  std::string reference_method_;  // empty until a reference is kept
};

}  // namespace sluice::bench
