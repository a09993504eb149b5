// sluice-bench: the check that keeps a reading method that computed
// something else from posting a figure. Every run's result must equal, byte
// for byte, that of the case's first good run, which is kept as the
// reference until the case ends.
#pragma once

#include <string>

namespace sluice::bench {

class result_check {
 public:
  // Checks the result `method` has just returned; the first one becomes the
  // reference. Throws std::runtime_error saying how it differs: both
  // results when they are short, else where they first differ.
  void check(const std::string& method, std::string result);

 private:
  std::string reference_;
  std::string reference_method_;  // empty until a reference is kept
};

}  // namespace sluice::bench
