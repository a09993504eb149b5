#include "support/filesystem.hpp"

#include <linux/magic.h>
#include <sys/statfs.h>

#include <cstdio>
#include <system_error>

#include "sluice/file.hpp"
#include "sluice/writer.hpp"

namespace sluice_test {
namespace {

// statfs's f_type of `path`, or 0 if it cannot be asked.
long filesystem_magic(const std::filesystem::path& path) {
  struct statfs fs {};
  return ::statfs(path.c_str(), &fs) == 0 ? static_cast<long>(fs.f_type) : 0;
}

}  // namespace

std::string filesystem_name(const std::filesystem::path& path) {
  switch (filesystem_magic(path)) {
    case EXT4_SUPER_MAGIC:  // ext2 and ext3 share it
      return "ext4";
    case TMPFS_MAGIC: return "tmpfs";
    case RAMFS_MAGIC: return "ramfs";
    case XFS_SUPER_MAGIC: return "xfs";
    case BTRFS_SUPER_MAGIC: return "btrfs";
    default: {
      char hex[32];
      std::snprintf(hex, sizeof hex, "0x%lx", static_cast<unsigned long>(filesystem_magic(path)));
      return hex;
    }
  }
}

bool on_tmpfs(const std::filesystem::path& path) { return filesystem_magic(path) == TMPFS_MAGIC; }

std::size_t direct_block(const std::filesystem::path& path) {
  try {
    sluice::writer probe(path, {.caching = sluice::caching::direct});
    return sluice::file::open(path, {.mode = sluice::open_mode::read_only}).direct_io_alignment();
  } catch (const std::system_error&) {
    return 0;
  }
}

std::string needs_droppable_cache(const std::filesystem::path& dir) {
  long magic = filesystem_magic(dir);
  if (magic != TMPFS_MAGIC && magic != RAMFS_MAGIC) return "";
  return dir.native() + " is on " + filesystem_name(dir) +
         ", whose cached pages are the file itself: none can be dropped";
}

}  // namespace sluice_test
