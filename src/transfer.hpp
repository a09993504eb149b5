// The two places sluice restarts interrupted system calls: transfer(), the
// one loop that turns pwritev/preadv/writev into "all or an error", and
// restart_interrupted() for every other call that may fail with EINTR.
#pragma once

#include <sys/uio.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>

namespace sluice::detail {

enum class direction { write, read };

struct transfer_result {
  std::uint64_t done;  // bytes transferred
  int error;           // errno of the failure, 0 if complete (or end of file when reading)
  // The write went to the descriptor's own offset (writev): it was asked to,
  // or the descriptor refused pwritev with ESPIPE (a pipe, socket or
  // terminal) and the rest went that way.
  bool sequential;
};

// Transfers every byte that iov[0, count) describes, starting at `offset`:
// restarts after EINTR, continues after a partial transfer, issues at most
// IOV_MAX buffers per call. A read stops early only at end of file; a write
// that transfers nothing is continued once, and reported as EIO if the next
// call transfers nothing either. The iovecs are consumed (modified). Never
// throws.
//
// Writes go at `offset` with pwritev unless `sequential` (or pwritev fails
// with ESPIPE, which costs that one call): then with writev wherever the
// descriptor is, `offset` only counting. A write refused with EAGAIN (a
// non-blocking pipe that is full) waits in poll until the descriptor takes
// bytes again, then continues. Reads are always at `offset` (preadv).
transfer_result transfer(int fd, direction dir, iovec* iov, std::size_t count, std::uint64_t offset,
                         bool sequential = false) noexcept;

// Calls `call` (returning -1 with errno on failure) again while it fails with
// EINTR; returns its first other result. For open, ftruncate and fallocate,
// which a signal may interrupt before they did anything. Never for close
// (the descriptor is gone even then) nor fsync (never retried, see DESIGN.md).
template <class Call>
auto restart_interrupted(Call call) {
  for (;;) {
    auto result = call();
    if (result != -1 || errno != EINTR) return result;
  }
}

}  // namespace sluice::detail
