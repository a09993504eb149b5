// os/sys.hpp - the one seam between sluice and the operating system.
//
// Every system call sluice makes goes through the table returned by sys().
// Each entry has the signature and the contract of the POSIX call it names:
// it returns -1 and sets errno on failure. Tests install their own table with
// set_sys() to inject EINTR, short transfers, ENOSPC, EIO or EFBIG at any call,
// and to count or record calls. Programs never need this header.
//
// Cost: one relaxed atomic load and one indirect call per system call.
#pragma once

#include <sys/types.h>
#include <sys/uio.h>

#include <cstdint>

struct stat;
struct statfs;
struct statx;
struct fiemap;
struct pollfd;

namespace sluice::detail {

struct sys_table {
  // openat(2), renameat(2) and unlinkat(2): a relative path is resolved in
  // the directory `dir` is open on, or in the working directory for
  // AT_FDCWD. The journal works inside the directory it holds open.
  int (*openat)(int dir, const char* path, int flags, mode_t mode);
  int (*close)(int fd);
  ssize_t (*pwritev)(int fd, const iovec* iov, int count, off_t offset);
  ssize_t (*preadv)(int fd, const iovec* iov, int count, off_t offset);
  // For descriptors that cannot seek (pipes, sockets, terminals) and
  // borrowed ones: writes, and reads, at the descriptor's own offset.
  ssize_t (*writev)(int fd, const iovec* iov, int count);
  ssize_t (*readv)(int fd, const iovec* iov, int count);
  // poll(2), with nfds_t as unsigned long: waits until a non-blocking pipe
  // can take more bytes, or has some to give.
  int (*poll)(struct pollfd* fds, unsigned long count, int timeout);
  int (*fdatasync)(int fd);
  int (*fsync)(int fd);
  int (*fallocate)(int fd, int mode, off_t offset, off_t length);
  int (*ftruncate)(int fd, off_t length);
  int (*fstat)(int fd, struct stat* out);
  int (*getfl)(int fd);                       // fcntl(fd, F_GETFL): the open flags (O_APPEND...)
  int (*fiemap)(int fd, struct fiemap* map);  // ioctl(fd, FS_IOC_FIEMAP, map)
  int (*linkat)(int from_dir, const char* from, int to_dir, const char* to, int flags);
  int (*renameat)(int from_dir, const char* from, int to_dir, const char* to);
  int (*unlinkat)(int dir, const char* path, int flags);
  int (*stat)(const char* path, struct stat* out);
  int (*sync_file_range)(int fd, off_t offset, off_t length, unsigned flags);
  int (*fadvise)(int fd, off_t offset, off_t length, int advice);  // posix_fadvise, errno style
  int (*statx)(int dir, const char* path, int flags, unsigned mask, struct statx* out);
  int (*mkdir)(const char* path, mode_t mode);
  // getdents64(2): fills `buffer` with linux_dirent64 entries of the open
  // directory `fd`; 0 at the end. The journal lists its segments with it.
  ssize_t (*getdents64)(int fd, void* buffer, size_t size);
  // lseek(2). The journal asks SEEK_DATA and SEEK_HOLE where a segment may
  // hold non-zero bytes, so that recovery need not read its unwritten end.
  off_t (*lseek)(int fd, off_t offset, int whence);
  // fcntl(fd, F_SETFL, flags): the journal clears the O_NONBLOCK it opens
  // segments with (so that a FIFO in their place cannot block the open).
  int (*setfl)(int fd, int flags);
  // flock(2): the journal's lock on its lock file (LOCK_EX or LOCK_SH, with
  // LOCK_NB), released when the descriptor is closed or the process dies.
  int (*flock)(int fd, int operation);

  // writer_options::atomic_replace follows a path's final symbolic links
  // itself, one held directory at a time, and gives the new file the old
  // one's owner, attributes and mode. readlinkat(fd, "", ...) reads the
  // link an O_PATH descriptor holds; fstatfs tells a /proc directory; the
  // old file's attributes are read through /proc/self/fd/<n> (listxattr
  // and getxattr follow that link), or by path, then checked with lstat,
  // where /proc is missing.
  int (*lstat)(const char* path, struct stat* out);
  ssize_t (*readlinkat)(int dir, const char* path, char* buffer, size_t size);
  int (*fstatfs)(int fd, struct statfs* out);
  uid_t (*geteuid)();  // never fails
  int (*fchown)(int fd, uid_t owner, gid_t group);
  int (*fchmod)(int fd, mode_t mode);
  ssize_t (*listxattr)(const char* path, char* names, size_t size);
  ssize_t (*getxattr)(const char* path, const char* name, void* value, size_t size);
  int (*fsetxattr)(int fd, const char* name, const void* value, size_t size, int flags);
  int (*fremovexattr)(int fd, const char* name);

  // io_uring, behind an opaque handle (liburing's struct io_uring), for
  // writer_options::write_behind. Same errno style: -1 and errno on failure.
  // Without liburing at build time each fails with ENOSYS (ring_close does
  // nothing).
  // ring_open: a ring of `entries` submission slots (io_uring_queue_init).
  int (*ring_open)(unsigned entries, void** ring);
  // ring_close: waits for nothing; call it once no write is in flight.
  void (*ring_close)(void* ring);
  // ring_register: registers buffers[0, count) as fixed buffers
  // (io_uring_register_buffers); ENOMEM past RLIMIT_MEMLOCK.
  int (*ring_register)(void* ring, const iovec* buffers, unsigned count);
  // ring_write: submits one write of data[0, size) at `offset` to `fd`, a
  // write_fixed from registered buffer `buffer_index`, or a plain write if
  // it is -1; its completion carries `tag`. 0 once submitted.
  int (*ring_write)(void* ring, int fd, const void* data, unsigned size, off_t offset,
                    int buffer_index, std::uint64_t tag);
  // ring_wait: waits for one completion and consumes it: its tag, and its
  // result (bytes written, or -errno). -1 with EINTR if a signal came first.
  int (*ring_wait)(void* ring, std::uint64_t* tag, int* result);
};

// The table of the real system calls.
const sys_table& real_sys() noexcept;

// The table in use (the real one unless a test installed another).
const sys_table& sys() noexcept;

// Installs `table` (nullptr restores the real one). The table must outlive
// its use; installing while another thread is inside sluice is not supported.
void set_sys(const sys_table* table) noexcept;

}  // namespace sluice::detail
