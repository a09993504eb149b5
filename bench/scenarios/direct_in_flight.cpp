#include "scenarios/direct_in_flight.hpp"

#include <liburing.h>

#include <algorithm>
#include <system_error>

namespace sluice::bench {
namespace {

[[noreturn]] void fail(int errno_value, const char* what) {
  throw std::system_error(errno_value, std::generic_category(), what);
}

// One io_uring, torn down on every path out.
class ring {
 public:
  explicit ring(unsigned entries) {
    if (int rc = io_uring_queue_init(entries, &ring_, 0); rc < 0) fail(-rc, "io_uring_queue_init");
  }
  ring(const ring&) = delete;
  ring& operator=(const ring&) = delete;
  ~ring() { io_uring_queue_exit(&ring_); }
  io_uring* get() { return &ring_; }

 private:
  io_uring ring_;
};

// Waits for one completion and checks that its write was whole.
void complete_one(io_uring* r) {
  io_uring_cqe* done = nullptr;
  if (int rc = io_uring_wait_cqe(r, &done); rc < 0) fail(-rc, "io_uring_wait_cqe");
  int result = done->res;
  auto expected = static_cast<int>(io_uring_cqe_get_data64(done));
  io_uring_cqe_seen(r, done);
  if (result < 0) fail(-result, "O_DIRECT write through io_uring");
  if (result != expected) fail(EIO, "O_DIRECT write through io_uring: short write");
}

}  // namespace

void write_direct_in_flight(int fd, const char* data, std::size_t piece, std::uint64_t size,
                            std::size_t block, unsigned depth) {
  ring uring(depth);
  std::uint64_t offset = 0;
  unsigned in_flight = 0;
  while (offset < size || in_flight > 0) {
    for (; in_flight < depth && offset < size; ++in_flight, offset += piece) {
      std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(piece, size - offset));
      n = (n + block - 1) / block * block;
      io_uring_sqe* write = io_uring_get_sqe(uring.get());
      io_uring_prep_write(write, fd, data, static_cast<unsigned>(n), offset);
      io_uring_sqe_set_data64(write, n);
    }
    if (int rc = io_uring_submit(uring.get()); rc < 0) fail(-rc, "io_uring_submit");
    complete_one(uring.get());
    --in_flight;
  }
}

}  // namespace sluice::bench
