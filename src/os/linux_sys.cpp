// The real system calls behind detail::sys(), and the switch tests use.
#include <dirent.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>

#include "os/sys.hpp"
#include "os/uring_sys.hpp"

namespace sluice::detail {
namespace {

int real_openat(int dir, const char* path, int flags, mode_t mode) {
  return ::openat(dir, path, flags, mode);
}
int real_fiemap(int fd, struct fiemap* map) { return ::ioctl(fd, FS_IOC_FIEMAP, map); }
int real_getfl(int fd) { return ::fcntl(fd, F_GETFL); }
int real_setfl(int fd, int flags) { return ::fcntl(fd, F_SETFL, flags); }

// posix_fadvise returns its error instead of setting errno.
int real_fadvise(int fd, off_t offset, off_t length, int advice) {
  int error = ::posix_fadvise(fd, offset, length, advice);
  if (error == 0) return 0;
  errno = error;
  return -1;
}

constexpr sys_table real_table{
    .openat = real_openat,
    .close = ::close,
    .pwritev = ::pwritev,
    .preadv = ::preadv,
    .writev = ::writev,
    .readv = ::readv,
    .poll = ::poll,  // nfds_t is unsigned long
    .fdatasync = ::fdatasync,
    .fsync = ::fsync,
    .fallocate = ::fallocate,
    .ftruncate = ::ftruncate,
    .fstat = ::fstat,
    .getfl = real_getfl,
    .fiemap = real_fiemap,
    .linkat = ::linkat,
    .renameat = ::renameat,
    .unlinkat = ::unlinkat,
    .stat = ::stat,
    .sync_file_range = ::sync_file_range,
    .fadvise = real_fadvise,
    .statx = ::statx,
    .mkdir = ::mkdir,
    .getdents64 = ::getdents64,
    .lseek = ::lseek,
    .setfl = real_setfl,
    .flock = ::flock,
    .lstat = ::lstat,
    .readlinkat = ::readlinkat,
    .fstatfs = ::fstatfs,
    .geteuid = ::geteuid,
    .fchown = ::fchown,
    .fchmod = ::fchmod,
    .listxattr = ::listxattr,
    .getxattr = ::getxattr,
    .fsetxattr = ::fsetxattr,
    .fremovexattr = ::fremovexattr,
    .ring_open = real_ring_open,
    .ring_close = real_ring_close,
    .ring_register = real_ring_register,
    .ring_write = real_ring_write,
    .ring_wait = real_ring_wait,
};

std::atomic<const sys_table*> current{&real_table};

}  // namespace

const sys_table& real_sys() noexcept { return real_table; }

const sys_table& sys() noexcept { return *current.load(std::memory_order_relaxed); }

void set_sys(const sys_table* table) noexcept {
  current.store(table ? table : &real_table, std::memory_order_relaxed);
}

}  // namespace sluice::detail
