// caching_mode::direct: O_DIRECT writes, every one aligned in memory, offset and
// length to the file's direct-I/O alignment (file::direct_io_alignment(),
// learned once the file is open). The buffer starts on a page and holds
// whole blocks; a partial last block is written padded with zeros, kept
// buffered and written again with what follows; close() cuts the padding
// (ftruncate to the exact size). A write() is always copied: the caller's
// memory is not known to be aligned.
#pragma once

#include <cstddef>

#include "writer/foreground_flush.hpp"

namespace sluice::detail {

class direct_flush final : public foreground_flush {
 public:
  direct_flush() noexcept;  // a page's alignment until attach()

  // Learns the file's alignment (statx, else the block size) and its
  // filesystem (fstatfs); allocates b's buffer again if a page is not a
  // multiple of the alignment.
  void attach(buffered_file& b, write_followup followup) override;
  std::size_t ready(std::size_t held) const noexcept override { return held - held % block_; }

  // Whole blocks, starting on a page even where the device asks for less.
  owned_buffer allocate(std::size_t size) const override;
  // Never: transfers come from the aligned buffer.
  std::size_t gather_threshold(std::size_t capacity) const noexcept override;
  void make_room(buffered_file& b) override { write_all(b); }
  // Four buffers (one fallocate for every four writes, and at most that
  // much reserved past the data) on ext4 and XFS, which run a write that
  // extends the file alone; elsewhere 0, growing did not pay (tmpfs
  // zeroes the pages it reserves, btrfs runs every write alone).
  std::uint64_t size_step(std::size_t capacity) const noexcept override {
    return grows_ahead_ ? 4 * capacity : 0;
  }
  // Writes the buffer padded to whole blocks; the partial last block stays.
  void write_all(buffered_file& b) override;
  // Cuts the file to its exact size (which gives back a reservation too);
  // the partial block counts as written.
  void finish(buffered_file& b, std::uint64_t reserved_end) override;
  // Cuts the file to position(): the buffered partial block and padding go.
  void trim_after_failure(buffered_file& b, std::uint64_t reserved_end) noexcept override;

 private:
  std::size_t alignment() const noexcept;
  void write_blocks(buffered_file& b, std::size_t held);

  std::size_t block_;  // the alignment of every transfer
  bool grows_ahead_ = false;
};

}  // namespace sluice::detail
