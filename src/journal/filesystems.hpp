// What the journal does on each filesystem: how a new segment's blocks are
// reserved and what its commits write, one row per filesystem
// (sys_table::filesystem_of, which the Linux backend reads from statfs's
// magic). The figures that chose each row are in docs/performance.md ("The
// journal on each filesystem").
#pragma once

#include <cstddef>

#include "os/sys.hpp"

namespace sluice::detail {

// How new segments are made and written on one kind of filesystem.
struct filesystem_choices {
  // Whether a new segment's blocks are reserved (fallocate, after asking the
  // disk to zero them); else it is only sized, sparse, its blocks taken as
  // records land.
  bool preallocate;
  // Zeros written after the records of a segment not zero-filled, in the
  // commit whose records pass the zeros written so far
  // (journal_state::tail_zeroed), so that later commits overwrite written
  // blocks; at most zero_block_size; 0: none.
  std::size_t zeros_ahead;
  // Whether a new segment, while empty, is made to be overwritten in place
  // (sys_table::set_no_copy_on_write) before its blocks are reserved.
  bool no_copy_on_write;
};

// The row for `which`; filesystem::other gets ext4's.
const filesystem_choices& choices_for(filesystem which) noexcept;

// The row for the filesystem `dir` (a directory's handle) is on: one
// filesystem_of call; ext4's row if the seam refuses it.
const filesystem_choices& choices_for_directory(handle dir) noexcept;

}  // namespace sluice::detail
