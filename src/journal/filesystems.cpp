#include "journal/filesystems.hpp"

#include "journal/segments.hpp"

namespace sluice::detail {
namespace {

// ext4, and any filesystem not below: blocks reserved with fallocate are
// unwritten extents, and an fdatasync that finds one written records it,
// which costs a second device flush; zeros written 256 KiB ahead make that
// one commit in many (1.04 flushes per fdatasync instead of 2).
constexpr filesystem_choices ext4_choices{
    .preallocate = true, .zeros_ahead = std::size_t{256} << 10, .no_copy_on_write = false};

// XFS: the same unwritten extents, and with zeros ahead the same flushes,
// writes and bytes per transaction as ext4 at 4 and 16 threads.
constexpr filesystem_choices xfs_choices = ext4_choices;

// btrfs: every fdatasync commits its log tree (two flushes, whatever the
// blocks), so zeros ahead save none and only add bytes; a copy-on-write
// segment also logs new blocks for each overwrite. No_COW without zeros sent
// a third fewer bytes per transaction than ext4's way at 4 and 16 threads,
// and its records overwrite the blocks reserved when it was made, where
// copy-on-write takes new ones at each commit.
constexpr filesystem_choices btrfs_choices{
    .preallocate = true, .zeros_ahead = 0, .no_copy_on_write = true};

// tmpfs: fdatasync writes nothing, and fallocate takes and clears the whole
// segment's memory at open: sized only, pages taken as records land.
constexpr filesystem_choices tmpfs_choices{
    .preallocate = false, .zeros_ahead = 0, .no_copy_on_write = false};

static_assert(ext4_choices.zeros_ahead <= zero_block_size);

}  // namespace

const filesystem_choices& choices_for(filesystem which) noexcept {
  switch (which) {
    case filesystem::xfs: return xfs_choices;
    case filesystem::btrfs: return btrfs_choices;
    case filesystem::tmpfs: return tmpfs_choices;
    case filesystem::ext4:
    case filesystem::other: break;
  }
  return ext4_choices;
}

const filesystem_choices& choices_for_directory(handle dir) noexcept {
  filesystem which = filesystem::other;
  if (sys().filesystem_of(dir, &which) != 0) return ext4_choices;
  return choices_for(which);
}

}  // namespace sluice::detail
