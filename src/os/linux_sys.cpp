// The Linux backend of detail::sys(): one system call per entry (the
// io_uring entries are in uring_sys.cpp).
#include <dirent.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>

#include "os/sys.hpp"
#include "os/uring_sys.hpp"

namespace sluice::detail {
namespace {

static_assert(working_directory == AT_FDCWD);

int open_flags(const open_request& how) {
  using access = open_request::access;
  int flags = how.mode == access::read         ? O_RDONLY
              : how.mode == access::write      ? O_WRONLY
              : how.mode == access::read_write ? O_RDWR
                                               : O_PATH;
  if (how.create) flags |= O_CREAT;
  if (how.exclusive) flags |= O_EXCL;
  if (how.truncate) flags |= O_TRUNC;
  if (how.append) flags |= O_APPEND;
  if (how.direct) flags |= O_DIRECT;
  if (how.unnamed_temporary) flags |= O_TMPFILE;
  if (how.directory) flags |= O_DIRECTORY;
  if (how.no_follow) flags |= O_NOFOLLOW;
  if (how.non_blocking) flags |= O_NONBLOCK;
  return flags | O_CLOEXEC;
}

handle real_open(handle dir, const char* path, const open_request& how) {
  return ::openat(dir, path, open_flags(how), static_cast<mode_t>(how.permissions));
}

ssize_t real_write_at(handle h, const iovec* pieces, int count, std::int64_t offset) {
  return ::pwritev(h, pieces, count, static_cast<off_t>(offset));
}

ssize_t real_read_at(handle h, const iovec* pieces, int count, std::int64_t offset) {
  return ::preadv(h, pieces, count, static_cast<off_t>(offset));
}

int real_wait_ready(handle h, readiness what) {
  pollfd want{h, static_cast<short>(what == readiness::readable ? POLLIN : POLLOUT), 0};
  return ::poll(&want, 1, -1) < 0 ? -1 : 0;
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

int real_resize(handle h, std::int64_t size) { return ::ftruncate(h, static_cast<off_t>(size)); }

int real_file_size_limit(std::uint64_t* out) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_FSIZE, &limit) != 0) return -1;
  *out = limit.rlim_cur == RLIM_INFINITY ? UINT64_MAX : static_cast<std::uint64_t>(limit.rlim_cur);
  return 0;
}

file_type type_of(mode_t mode) {
  if (S_ISREG(mode)) return file_type::regular;
  if (S_ISDIR(mode)) return file_type::directory;
  if (S_ISLNK(mode)) return file_type::symlink;
  if (S_ISFIFO(mode)) return file_type::fifo;
  if (S_ISSOCK(mode)) return file_type::socket;
  if (S_ISCHR(mode)) return file_type::character_device;
  if (S_ISBLK(mode)) return file_type::block_device;
  return file_type::other;
}

file_facts facts_of(const struct stat& st) {
  return {.type = type_of(st.st_mode),
          .size = static_cast<std::uint64_t>(st.st_size),
          .mode = static_cast<unsigned>(st.st_mode & 07777),
          .owner = st.st_uid,
          .group = st.st_gid,
          .block_size = static_cast<std::uint64_t>(st.st_blksize),
          .device = st.st_dev,
          .inode = st.st_ino};
}

int real_facts(handle h, file_facts* out) {
  struct stat st {};
  if (::fstat(h, &st) != 0) return -1;
  *out = facts_of(st);
  return 0;
}

int real_state(handle h, handle_state* out) {
  int flags = ::fcntl(h, F_GETFL);
  if (flags == -1) return -1;
  *out = {.append = (flags & O_APPEND) != 0,
          .direct = (flags & O_DIRECT) != 0,
          .non_blocking = (flags & O_NONBLOCK) != 0};
  return 0;
}

int real_set_state(handle h, const handle_state& state) {
  int flags = (state.append ? O_APPEND : 0) | (state.direct ? O_DIRECT : 0) |
              (state.non_blocking ? O_NONBLOCK : 0);
  return ::fcntl(h, F_SETFL, flags);
}

int real_direct_alignment(handle h, direct_io_facts* out) {
  struct statx sx {};
  if (::statx(h, "", AT_EMPTY_PATH, STATX_DIOALIGN | STATX_TYPE, &sx) != 0) return -1;
  *out = {.known = (sx.stx_mask & STATX_DIOALIGN) != 0,
          .memory = sx.stx_dio_mem_align,
          .offset = sx.stx_dio_offset_align,
          .type_known = (sx.stx_mask & STATX_TYPE) != 0,
          .type = type_of(sx.stx_mode)};
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

// posix_fadvise returns its error instead of setting errno.
int real_drop_cache(handle h, std::int64_t offset, std::int64_t length) {
  int error = ::posix_fadvise(h, static_cast<off_t>(offset), static_cast<off_t>(length),
                              POSIX_FADV_DONTNEED);
  if (error == 0) return 0;
  errno = error;
  return -1;
}

int real_advise_sequential(handle h) {
  int error = ::posix_fadvise(h, 0, 0, POSIX_FADV_SEQUENTIAL);
  if (error == 0) return 0;
  errno = error;
  return -1;
}

std::int64_t real_seek_region(handle h, std::int64_t offset, region what) {
  return ::lseek(h, static_cast<off_t>(offset), what == region::data ? SEEK_DATA : SEEK_HOLE);
}

int real_set_no_copy_on_write(handle h) {
  int flags = 0;
  if (::ioctl(h, FS_IOC_GETFLAGS, &flags) != 0) return -1;
  flags |= FS_NOCOW_FL;
  return ::ioctl(h, FS_IOC_SETFLAGS, &flags);
}

int real_rename(handle from_dir, const char* from, handle to_dir, const char* to) {
  return ::renameat(from_dir, from, to_dir, to);
}

int real_remove(handle dir, const char* name) { return ::unlinkat(dir, name, 0); }

int real_make_directory(const char* path, unsigned permissions) {
  return ::mkdir(path, static_cast<mode_t>(permissions));
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

int real_lock(handle h, lock_kind kind) {
  return ::flock(h, (kind == lock_kind::exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB);
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

int real_path_facts(const char* path, file_facts* out) {
  struct stat st {};
  if (::lstat(path, &st) != 0) return -1;
  *out = facts_of(st);
  return 0;
}

ssize_t real_read_link(handle h, char* buffer, size_t size) {
  return ::readlinkat(h, "", buffer, size);
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

std::uint32_t real_effective_user() { return ::geteuid(); }

int real_set_owner(handle h, std::uint32_t owner, std::uint32_t group) {
  return ::fchown(h, owner, group);
}

int real_set_mode(handle h, unsigned mode) { return ::fchmod(h, static_cast<mode_t>(mode)); }

int real_set_attribute(handle h, const char* name, const void* value, size_t size) {
  return ::fsetxattr(h, name, value, size, 0);
}

constexpr sys_table real_table{
    .open = real_open,
    .close = ::close,
    .write_at = real_write_at,
    .read_at = real_read_at,
    .write_stream = ::writev,
    .read_stream = ::readv,
    .wait_ready = real_wait_ready,
    .sync_data = ::fdatasync,
    .sync_all = ::fsync,
    .sync_directory = ::fsync,
    .preallocate = real_preallocate,
    .resize = real_resize,
    .file_size_limit = real_file_size_limit,
    .facts = real_facts,
    .state = real_state,
    .set_state = real_set_state,
    .filesystem_of = real_filesystem_of,
    .direct_alignment = real_direct_alignment,
    .count_extents = real_count_extents,
    .writeback = real_writeback,
    .drop_cache = real_drop_cache,
    .advise_sequential = real_advise_sequential,
    .seek_region = real_seek_region,
    .set_no_copy_on_write = real_set_no_copy_on_write,
    .rename = real_rename,
    .remove = real_remove,
    .make_directory = real_make_directory,
    .list_directory = real_list_directory,
    .lock = real_lock,
    .can_link_unnamed = real_can_link_unnamed,
    .link_unnamed = real_link_unnamed,
    .async_open = real_async_open,
    .async_close = real_async_close,
    .async_register = real_async_register,
    .async_submit = real_async_submit,
    .async_complete = real_async_complete,
    .async_drain = real_async_drain,
    .path_facts = real_path_facts,
    .read_link = real_read_link,
    .on_procfs = real_on_procfs,
    .mount_root = real_mount_root,
    .effective_user = real_effective_user,
    .set_owner = real_set_owner,
    .set_mode = real_set_mode,
    .list_attributes = ::listxattr,
    .get_attribute = ::getxattr,
    .set_attribute = real_set_attribute,
    .remove_attribute = ::fremovexattr,
};

}  // namespace

const sys_table& real_sys() noexcept { return real_table; }

}  // namespace sluice::detail
