#include "os/transfer.hpp"

#include <cerrno>

#include "os/sys.hpp"

namespace sluice::detail {
namespace {

// Drops `n` transferred bytes from the front of the io_piece array.
void consume(io_piece*& iov, std::size_t& count, std::size_t n) noexcept {
  while (count > 0 && n >= iov->iov_len) {
    n -= iov->iov_len;
    ++iov;
    --count;
  }
  if (n > 0) {
    iov->iov_base = static_cast<char*>(iov->iov_base) + n;
    iov->iov_len -= n;
  }
}

ssize_t issue(detail::handle fd, direction dir, const io_piece* iov, std::size_t count,
              std::uint64_t offset, bool sequential) {
  int batch = count < max_pieces ? static_cast<int>(count) : max_pieces;
  auto at = static_cast<std::int64_t>(offset);
  if (dir == direction::read)
    return sequential ? sys().read_stream(fd, iov, batch) : sys().read_at(fd, iov, batch, at);
  return sequential ? sys().write_stream(fd, iov, batch) : sys().write_at(fd, iov, batch, at);
}

// After a transfer failed with EAGAIN: waits until `fd` takes bytes again,
// or has some to give (or reports why it never will, which the next call
// then says). False if waiting itself failed.
bool wait_ready(detail::handle fd, direction dir) noexcept {
  readiness want = dir == direction::read ? readiness::readable : readiness::writable;
  return restart_interrupted([&] { return sys().wait_ready(fd, want); }) >= 0;
}

}  // namespace

transfer_result transfer(detail::handle fd, direction dir, io_piece* iov, std::size_t count,
                         std::uint64_t offset, bool sequential, extent until) noexcept {
  std::uint64_t done = 0;
  bool stalled = false;    // the last write transferred nothing
  consume(iov, count, 0);  // skip leading empty buffers
  while (count > 0) {
    ssize_t n = issue(fd, dir, iov, count, offset + done, sequential);
    if (n < 0) {
      int error = errno;
      if (error == EINTR) continue;
      if (error == ESPIPE && !sequential) {
        sequential = true;  // a pipe, socket or terminal: nothing was transferred
        continue;
      }
      if (error == EAGAIN && wait_ready(fd, dir)) continue;
      return {done, error, sequential};
    }
    if (n == 0) {
      if (dir == direction::read) return {done, 0, sequential};  // end of file
      // A write of nothing is a partial transfer like any other: continue it
      // once; a second one in a row means the kernel will not take the bytes.
      if (stalled) return {done, EIO, sequential};
      stalled = true;
      continue;
    }
    stalled = false;
    done += static_cast<std::uint64_t>(n);
    if (until == extent::first_bytes) break;
    consume(iov, count, static_cast<std::size_t>(n));
  }
  return {done, 0, sequential};
}

}  // namespace sluice::detail
