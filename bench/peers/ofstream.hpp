// sluice-bench: the iostreams peer's file, std::ofstream, as a program opens
// it (by default, or tuned with a buffer of its own) and finished with the
// error checks a careful program makes.
#pragma once

#include <fstream>
#include <memory>

#include "core/bench_case.hpp"

namespace sluice::bench {

// A std::ofstream of `path`, binary, with a buffer of big_buffer_size
// (256 KiB) of its own, given before the open: the tuned iostreams peer.
// Failures show in the stream's state, as ever; finish() reports them.
class buffered_ofstream {
 public:
  explicit buffered_ofstream(const char* path);
  buffered_ofstream(const buffered_ofstream&) = delete;
  buffered_ofstream& operator=(const buffered_ofstream&) = delete;

  std::ofstream& get() noexcept { return out_; }

 private:
  std::unique_ptr<char[]> buffer_;  // outlives out_: destroyed after its close
  std::ofstream out_;
};

// Flushes `out`, fdatasyncs t.path through a descriptor of its own when
// t.sync (std::ofstream does not show its descriptor), closes. Throws
// std::runtime_error if the stream failed at any point, std::system_error
// if the fdatasync did.
void finish(std::ofstream& out, const target& t);

}  // namespace sluice::bench
