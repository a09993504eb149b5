// The Linux backend of detail::sys(): one system call per entry. It is the
// portable backend's table (os/posix_calls.hpp: pwritev, fstat, renameat,
// flock, xattrs...) with Linux's own calls where they do better: O_DIRECT
// and O_TMPFILE, fdatasync, fallocate's modes, statx, FIEMAP,
// sync_file_range, FS_IOC flags, getdents64, statfs, /proc. The io_uring
// entries are in uring_sys.cpp.
#include <dirent.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>

#include "os/posix_calls.hpp"
#include "os/sys.hpp"

namespace sluice::detail {
namespace {

// posix::open_flags, with Linux's own: O_DIRECT, O_TMPFILE.
int open_flags(const open_request& how) {
  int flags = posix::open_flags(how);
  if (how.direct) flags |= O_DIRECT;
  if (how.unnamed_temporary) flags |= O_TMPFILE;
  return flags;
}

handle real_open(handle dir, const char* path, const open_request& how) {
  return ::openat(dir, path, open_flags(how), static_cast<mode_t>(how.permissions));
}

int real_preallocate(handle h, std::int64_t offset, std::int64_t length, space_mode how) {
  // FALLOC_FL_WRITE_ZEROES: in linux/falloc.h from Linux 6.17 on, which
  // Debian 12 lacks.
  constexpr int write_zeroes = 0x80;
  int mode = how == space_mode::keep_size       ? FALLOC_FL_KEEP_SIZE
             : how == space_mode::written_zeros ? write_zeroes
                                                : 0;
  return ::fallocate(h, mode, static_cast<off_t>(offset), static_cast<off_t>(length));
}

int real_state(handle h, handle_state* out) { return posix::state_with(h, out, O_DIRECT); }

int real_set_state(handle h, const handle_state& state) {
  return posix::set_state_with(h, state, O_DIRECT);
}

int real_direct_alignment(handle h, direct_io_facts* out) {
  struct statx sx {};
  if (::statx(h, "", AT_EMPTY_PATH, STATX_DIOALIGN | STATX_TYPE, &sx) != 0) return -1;
  *out = {.known = (sx.stx_mask & STATX_DIOALIGN) != 0,
          .memory = sx.stx_dio_mem_align,
          .offset = sx.stx_dio_offset_align,
          .type_known = (sx.stx_mask & STATX_TYPE) != 0,
          .type = posix::type_of(sx.stx_mode)};
  return 0;
}

int real_count_extents(handle h, std::uint64_t* count) {
  struct fiemap query {};
  query.fm_start = 0;
  query.fm_length = FIEMAP_MAX_OFFSET;
  query.fm_flags = FIEMAP_FLAG_SYNC;
  query.fm_extent_count = 0;  // only count
  if (::ioctl(h, FS_IOC_FIEMAP, &query) != 0) return -1;
  *count = query.fm_mapped_extents;
  return 0;
}

int real_writeback(handle h, std::int64_t offset, std::int64_t length, bool wait) {
  unsigned flags =
      wait ? SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER
           : SYNC_FILE_RANGE_WRITE;
  return ::sync_file_range(h, static_cast<off_t>(offset), static_cast<off_t>(length), flags);
}

int real_set_no_copy_on_write(handle h) {
  int flags = 0;
  if (::ioctl(h, FS_IOC_GETFLAGS, &flags) != 0) return -1;
  flags |= FS_NOCOW_FL;
  return ::ioctl(h, FS_IOC_SETFLAGS, &flags);
}

// One getdents64 into `names`, then its entries' names moved to the front
// (a name never moves past the entry it came from).
ssize_t real_list_directory(handle dir, char* names, size_t size) {
  ssize_t n = ::getdents64(dir, names, size);
  if (n <= 0) return n;
  std::size_t used = 0;
  for (std::size_t at = 0; at < static_cast<std::size_t>(n);) {
    dirent64 entry;
    std::size_t fixed = offsetof(dirent64, d_name);
    std::memcpy(&entry, names + at, fixed);
    std::size_t length = std::strlen(names + at + fixed) + 1;
    std::memmove(names + used, names + at + fixed, length);
    used += length;
    at += entry.d_reclen;
  }
  return static_cast<ssize_t>(used);
}

// "/proc/self/fd/<h>": an unnamed temporary is named by a link from there,
// which a sandbox or chroot may lack.
struct self_path {
  explicit self_path(handle h) { std::snprintf(text, sizeof text, "/proc/self/fd/%d", h); }
  char text[32];
};

int real_can_link_unnamed(handle h) {
  struct stat st {};
  return ::stat(self_path(h).text, &st);
}

int real_link_unnamed(handle h, handle dir, const char* name) {
  return ::linkat(AT_FDCWD, self_path(h).text, dir, name, AT_SYMLINK_FOLLOW);
}

int real_filesystem_of(handle h, filesystem* out) {
  struct statfs fs {};
  if (::fstatfs(h, &fs) != 0) return -1;
  switch (fs.f_type) {
    case EXT4_SUPER_MAGIC: *out = filesystem::ext4; break;
    case XFS_SUPER_MAGIC: *out = filesystem::xfs; break;
    case BTRFS_SUPER_MAGIC: *out = filesystem::btrfs; break;
    case TMPFS_MAGIC: *out = filesystem::tmpfs; break;
    default: *out = filesystem::other;
  }
  return 0;
}

int real_on_procfs(handle dir) {
  struct statfs fs {};
  if (::fstatfs(dir, &fs) != 0) return -1;
  return fs.f_type == PROC_SUPER_MAGIC ? 1 : 0;
}

int real_mount_root(handle h) {
  struct statx sx {};
  if (::statx(h, "", AT_EMPTY_PATH, STATX_TYPE, &sx) != 0) return -1;
  return (sx.stx_attributes_mask & sx.stx_attributes & STATX_ATTR_MOUNT_ROOT) ? 1 : 0;
}

// The portable table, with Linux's own calls where it has better ones.
// The async entries are uring_sys.cpp's in both: io_uring with liburing.
constexpr sys_table linux_table() {
  sys_table table = posix::table();
  table.open = real_open;
  table.sync_data = ::fdatasync;
  table.sync_all = ::fsync;
  table.sync_directory = ::fsync;
  table.preallocate = real_preallocate;
  table.state = real_state;
  table.set_state = real_set_state;
  table.filesystem_of = real_filesystem_of;
  table.direct_alignment = real_direct_alignment;
  table.count_extents = real_count_extents;
  table.writeback = real_writeback;
  table.set_no_copy_on_write = real_set_no_copy_on_write;
  table.list_directory = real_list_directory;
  table.can_link_unnamed = real_can_link_unnamed;
  table.link_unnamed = real_link_unnamed;
  table.on_procfs = real_on_procfs;
  table.mount_root = real_mount_root;
  return table;
}

constexpr sys_table real_table = linux_table();

}  // namespace

const sys_table& real_sys() noexcept { return real_table; }

}  // namespace sluice::detail
