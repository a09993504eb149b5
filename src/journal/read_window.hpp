// A windowed reader over one file, for recovery and cursors: reads through
// a buffer of at least 1 MiB, never past a limit, and says where the file
// may hold data.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "sluice/file.hpp"

namespace sluice::detail {

// Reads a file through a buffer of at least 1 MiB: bytes(offset, n) returns
// up to n bytes at `offset` (fewer only at the end of `limit`), valid until
// the next call. One pread per buffer refill.
class read_window {
 public:
  read_window(file& source, std::uint64_t limit) : source_(source), limit_(limit) {}
  std::span<const std::byte> bytes(std::uint64_t offset, std::size_t n);
  std::uint64_t limit() const noexcept { return limit_; }
  // Reads nothing at or past `limit` from now on (if below the current one).
  void limit_to(std::uint64_t limit) noexcept { limit_ = std::min(limit_, limit); }
  // The ranges [begin, end) from `offset` to limit() that may hold non-zero
  // bytes, in order: the filesystem's SEEK_DATA and SEEK_HOLE (two lseeks a
  // range, no read), so that unwritten and sparse blocks, which read as
  // zeros, need not be read. Asked all at once, before reading any: a read's
  // readahead caches zero pages of unwritten blocks, which SEEK_DATA then
  // counts as data. Where the filesystem cannot say, or an lseek fails, the
  // range runs on to limit().
  std::vector<std::pair<std::uint64_t, std::uint64_t>> data_ranges(std::uint64_t offset) const;
  // Drops the clean cached pages from the first page boundary at or after
  // `offset` to the end (POSIX_FADV_DONTNEED, one fadvise; dirty pages are
  // kept, and a failure keeps them all). Readahead caches the zeros of
  // unwritten blocks, and SEEK_DATA counts cached pages as data: dropped
  // before data_ranges(), so that they are not read as data again.
  void drop_cached_after(std::uint64_t offset) const noexcept;

 private:
  file& source_;
  std::uint64_t limit_;
  std::uint64_t start_ = 0;
  std::vector<std::byte> buffer_;
};

}  // namespace sluice::detail
