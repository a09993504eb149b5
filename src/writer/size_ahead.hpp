// caching_mode::direct through io_uring on ext4 and XFS
// (direct_flush::size_step): the file's size kept ahead of the writes in
// flight. A direct write that extends the file is one the
// filesystem runs alone (ext4 and XFS hand it to a kernel worker that
// holds the inode lock until the device has it), so writes queued together
// would reach the device one after the other, each a thread handoff late.
// Inside the file's size they are issued at once and overlap. The file is
// grown (fallocate: the space reserved, reading as zeros) a step at a time
// ahead of the writes, never past the process's file size limit, and cut
// back whenever the writes are waited for (flush(), close()), so that the
// growth shows only while writes are in flight; a failure cuts it back too.
// Space writer_options::preallocate reserved past the data, which the cut
// frees, is reserved again.
#pragma once

#include <cstdint>

#include "os/handle.hpp"

namespace sluice::detail {

class size_ahead {
 public:
  // For the file `fd` of `size` bytes, grown `step` bytes past the end of
  // the write that needs it.
  size_ahead(detail::handle fd, std::uint64_t size, std::uint64_t step) noexcept;

  // Before a write that ends at `end`: grows the file to end + step (or to
  // the process's file size limit, read each time) if it is shorter than
  // `end`. A getrlimit and a fallocate per step. Never fails: where the
  // filesystem refuses (no fallocate, ENOSPC, the limit), it stops growing
  // for good and the writes extend the file themselves.
  void cover(std::uint64_t end) noexcept;

  // Once no write is in flight, the data ending at `end`: cuts the file
  // back to `end` if it was grown past it (one ftruncate), then reserves
  // again the space kept_reserved() names past `end` (one fallocate, the
  // size left alone; a refusal leaves it unreserved, as where preallocation
  // is unsupported). The next write grows the file again. Returns 0, or the
  // errno of the cut: the file then still ends past `end` (zeros), and
  // growing stops.
  int give_back(std::uint64_t end) noexcept;

  // The file has space reserved up to `end` (writer_options::preallocate):
  // give_back() keeps it reserved.
  void keep_reserved(std::uint64_t end) noexcept { reserved_end_ = end; }

  // The size the file may have been grown to (a failure's cut must reach
  // it), or 0 if it was not grown past its data.
  std::uint64_t grown() const noexcept { return grown_; }

 private:
  const detail::handle fd_;
  std::uint64_t size_;  // the file's, as far as this knows
  std::uint64_t step_;  // 0 once growing stopped
  std::uint64_t grown_ = 0;
  std::uint64_t reserved_end_ = 0;
};

}  // namespace sluice::detail
