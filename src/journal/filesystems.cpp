#include "journal/filesystems.hpp"

namespace sluice::detail {
namespace {

// ext4, and any filesystem not below: blocks reserved with fallocate are
// unwritten extents, whose first fdatasync after a write also records them
// as written (one more device flush); zeros 256 KiB ahead make that one
// commit in many.
constexpr filesystem_choices ext4_choices{.name = "ext4",
                                          .preallocate = true,
                                          .zeros_ahead = std::size_t{256} << 10,
                                          .no_copy_on_write = false};

// XFS: the same unwritten extents, at the same cost in flushes and bytes
// per commit as ext4.
constexpr filesystem_choices xfs_choices{.name = "XFS",
                                         .preallocate = true,
                                         .zeros_ahead = std::size_t{256} << 10,
                                         .no_copy_on_write = false};

// btrfs: every overwrite of a copy-on-write file allocates new blocks and
// logs them; a No_COW segment is overwritten in place, and its reserved
// blocks are written in place as well, so zeros ahead only add bytes.
constexpr filesystem_choices btrfs_choices{
    .name = "btrfs", .preallocate = true, .zeros_ahead = 0, .no_copy_on_write = true};

// tmpfs: fdatasync writes nothing, and fallocate takes the whole segment's
// memory at once: sized only, pages taken as records land.
constexpr filesystem_choices tmpfs_choices{
    .name = "tmpfs", .preallocate = false, .zeros_ahead = 0, .no_copy_on_write = false};

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
