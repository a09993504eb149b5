// The two places sluice restarts interrupted system calls: transfer(), the
// one loop that turns pwritev/preadv/writev/readv into "all or an error", and
// restart_interrupted() for every other call that may fail with EINTR.
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "os/handle.hpp"

namespace sluice::detail {

enum class direction { write, read };

// How far a transfer goes before it returns: every byte, or the bytes of
// the first call that moves any (a pipe's or socket's reader then gets what
// has arrived instead of waiting for the rest).
enum class extent { all, first_bytes };

struct transfer_result {
  std::uint64_t done;  // bytes transferred
  int error;           // errno of the failure, 0 if complete (or end of file when reading)
  // The transfer went to the descriptor's own offset (writev, readv): it
  // was asked to, or the descriptor refused pwritev/preadv with ESPIPE (a
  // pipe, socket or terminal) and the rest went that way.
  bool sequential;
};

// Transfers every byte that iov[0, count) describes, starting at `offset`:
// restarts after EINTR, continues after a partial transfer, issues at most
// max_pieces buffers per call. A read stops early only at end of file, or,
// with extent::first_bytes, after the first call that read something; a write
// that transfers nothing is continued once, and reported as EIO if the next
// call transfers nothing either. The iovecs are consumed (modified). Never
// throws.
//
// Transfers go at `offset` with pwritev/preadv unless `sequential` (or the
// call fails with ESPIPE, which costs that one call): then with
// writev/readv wherever the descriptor is, `offset` only counting. A
// transfer refused with EAGAIN (a non-blocking pipe that is full, or empty)
// waits in poll until the descriptor is ready again, then continues.
transfer_result transfer(detail::handle fd, direction dir, io_piece* iov, std::size_t count,
                         std::uint64_t offset, bool sequential = false,
                         extent until = extent::all) noexcept;

// Calls `call` (returning -1 with errno on failure) again while it fails with
// EINTR; returns its first other result. For open, ftruncate and fallocate,
// which a signal may interrupt before they did anything. Never for close
// (the descriptor is gone even then) nor fsync (never retried, see DESIGN.md).
// A call returning a handle fails with no_handle().
template <class Call>
auto restart_interrupted(Call call) {
  for (;;) {
    auto result = call();
    if constexpr (std::is_same_v<decltype(result), handle>) {
      if (result != no_handle() || errno != EINTR) return result;
    } else {
      if (result != -1 || errno != EINTR) return result;
    }
  }
}

}  // namespace sluice::detail
