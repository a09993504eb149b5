// sluice-bench: the iostreams peer's input, std::ifstream as a program opens
// it (by default, or tuned with a buffer of its own), finished with the
// error checks a careful program makes.
#pragma once

#include <cstddef>
#include <fstream>
#include <memory>

namespace sluice::bench {

// A std::ifstream of `path`, binary; with buffer_size > 0, a buffer of that
// size of its own, given before the open. Throws std::runtime_error if the
// open fails.
class input_ifstream {
 public:
  input_ifstream(const char* path, std::size_t buffer_size);
  input_ifstream(const input_ifstream&) = delete;
  input_ifstream& operator=(const input_ifstream&) = delete;

  std::ifstream& get() noexcept { return in_; }
  // Closes. Throws std::runtime_error if a read failed (badbit), or if the
  // stream stopped before the end of the file (a parse error).
  void finish();

 private:
  std::unique_ptr<char[]> buffer_;  // outlives in_: destroyed after its close
  std::ifstream in_;
};

}  // namespace sluice::bench
