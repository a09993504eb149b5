// What the journal does on each filesystem: how a new segment's blocks are
// reserved and written, chosen by the filesystem's type (statfs's magic)
// from a table measured per filesystem. The figures that chose each entry
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

// The statfs magics the table knows (linux/magic.h).
inline constexpr std::uint64_t ext4_magic = 0xEF53;
inline constexpr std::uint64_t xfs_magic = 0x58465342;
inline constexpr std::uint64_t btrfs_magic = 0x9123683E;
inline constexpr std::uint64_t tmpfs_magic = 0x01021994;

// The row for filesystem type `type`; the default row (ext4's choices) for
// a type the table does not know.
const filesystem_choices& choices_for(std::uint64_t type) noexcept;

// The row for the filesystem `dir` (a directory's handle) is on: one
// filesystem_type call; the default row if the seam refuses it.
const filesystem_choices& choices_for_directory(handle dir) noexcept;

}  // namespace sluice::detail
