#include "os/transfer.hpp"

#include <poll.h>

#include <cerrno>
#include <climits>

#include "os/sys.hpp"

namespace sluice::detail {
namespace {

// Drops `n` transferred bytes from the front of the iovec array.
void consume(iovec*& iov, std::size_t& count, std::size_t n) noexcept {
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

ssize_t issue(int fd, direction dir, const iovec* iov, std::size_t count, std::uint64_t offset,
              bool sequential) {
  int batch = count < IOV_MAX ? static_cast<int>(count) : IOV_MAX;
  auto at = static_cast<off_t>(offset);
  if (dir == direction::read)
    return sequential ? sys().readv(fd, iov, batch) : sys().preadv(fd, iov, batch, at);
  return sequential ? sys().writev(fd, iov, batch) : sys().pwritev(fd, iov, batch, at);
}

// After a transfer failed with EAGAIN: waits until `fd` takes bytes again,
// or has some to give (or reports why it never will, which the next call
// then says). False if poll itself failed.
bool wait_ready(int fd, direction dir) noexcept {
  pollfd want{fd, static_cast<short>(dir == direction::read ? POLLIN : POLLOUT), 0};
  return restart_interrupted([&] { return sys().poll(&want, 1, -1); }) >= 0;
}

}  // namespace

transfer_result transfer(int fd, direction dir, iovec* iov, std::size_t count, std::uint64_t offset,
                         bool sequential) noexcept {
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
    consume(iov, count, static_cast<std::size_t>(n));
  }
  return {done, 0, sequential};
}

}  // namespace sluice::detail
