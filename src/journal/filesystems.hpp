// What the journal does on each filesystem: how a new segment's blocks are
// reserved and written, chosen by the filesystem (sys_table::filesystem_of,
// statfs's magic on Linux) from a table measured per filesystem. The figures that chose each entry
// are in docs/performance.md#the-journal-on-each-filesystem.
#pragma once

#include <cstddef>
#include <cstdint>

#include "os/sys.hpp"

namespace sluice::detail {

// How new segments are made and written on one kind of filesystem.
struct filesystem_choices {
  const char* name;  // as docs/performance.md names the row
  // Whether a new segment is reserved with fallocate (else only sized:
  // sparse, its blocks allocated as records land).
  bool preallocate;
  // Zeros written after the records of a reserved segment, in the commit
  // whose records pass the zeros written so far (journal_state::
  // tail_zeroed), so that later commits overwrite written blocks; 0: none.
  std::size_t zeros_ahead;
  // Whether a new segment, while empty, is made to be overwritten in place
  // (sys_table::set_no_copy_on_write) before its blocks are reserved.
  bool no_copy_on_write;
};

// The row for `which` (filesystem::other: ext4's choices).
const filesystem_choices& choices_for(filesystem which) noexcept;

// The row for the filesystem `dir` (a directory's handle) is on: one
// filesystem_of call; ext4's row if the seam refuses it.
const filesystem_choices& choices_for_directory(handle dir) noexcept;

}  // namespace sluice::detail
