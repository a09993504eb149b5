// sluice-bench: one status line on stderr, rewritten in place with '\r',
// shown only when stderr is a terminal so that logs and pipes stay clean.
#pragma once

#include <cstddef>
#include <string_view>

namespace sluice::bench {

class progress {
 public:
  explicit progress(std::size_t total_runs);
  void step(std::string_view label);  // "[ 12/95] bytes: fwrite"
  void clear();                       // erases the line, if shown

 private:
  bool enabled_;
  bool shown_ = false;
  std::size_t done_ = 0;
  std::size_t total_;
};

}  // namespace sluice::bench
