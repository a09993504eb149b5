// The portable backend's entries that are one call, the same on every
// POSIX system: Linux's backend uses them too.
#include "os/posix_calls.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>

#if __has_include(<sys/xattr.h>)
#include <sys/xattr.h>
#define SLUICE_HAVE_XATTR 1
#endif

namespace sluice::detail::posix {

static_assert(working_directory == AT_FDCWD);

int refuse(int error) noexcept {
  errno = error;
  return -1;
}

int from_returned(int error) noexcept { return error == 0 ? 0 : refuse(error); }

namespace {

int access_flags(open_request::access mode) {
  using access = open_request::access;
  switch (mode) {
    case access::read: return O_RDONLY;
    case access::write: return O_WRONLY;
    case access::read_write: return O_RDWR;
    case access::path_only: break;
  }
#ifdef O_PATH
  return O_PATH;
#else
  return O_RDONLY | O_NONBLOCK;
#endif
}

// `transfer(piece, offset)` (pwrite or pread) for each piece in turn,
// stopping after one that moves fewer bytes than its piece.
template <class Transfer>
ssize_t each_piece(const iovec* pieces, int count, std::int64_t offset, Transfer transfer) {
  ssize_t done = 0;
  for (int i = 0; i < count; ++i) {
    ssize_t n = transfer(pieces[i], static_cast<off_t>(offset + done));
    if (n < 0) return done > 0 ? done : -1;
    done += n;
    if (static_cast<std::size_t>(n) < pieces[i].iov_len) break;
  }
  return done;
}

}  // namespace

int open_flags(const open_request& how) {
  int flags = access_flags(how.mode);
  if (how.create) flags |= O_CREAT;
  if (how.exclusive) flags |= O_EXCL;
  if (how.truncate) flags |= O_TRUNC;
  if (how.append) flags |= O_APPEND;
  if (how.directory) flags |= O_DIRECTORY;
  if (how.no_follow) flags |= O_NOFOLLOW;
  if (how.non_blocking) flags |= O_NONBLOCK;
  return flags | O_CLOEXEC;
}

// Systems have both or neither (macOS from 11, the BSDs, Linux).
#if defined(SLUICE_HAVE_PWRITEV) && defined(SLUICE_HAVE_PREADV)
ssize_t write_at(handle h, const iovec* pieces, int count, std::int64_t offset) {
  return ::pwritev(h, pieces, count, static_cast<off_t>(offset));
}

ssize_t read_at(handle h, const iovec* pieces, int count, std::int64_t offset) {
  return ::preadv(h, pieces, count, static_cast<off_t>(offset));
}
#else
ssize_t write_at(handle h, const iovec* pieces, int count, std::int64_t offset) {
  return write_each(h, pieces, count, offset);
}

ssize_t read_at(handle h, const iovec* pieces, int count, std::int64_t offset) {
  return read_each(h, pieces, count, offset);
}
#endif

ssize_t write_each(handle h, const iovec* pieces, int count, std::int64_t offset) {
  return each_piece(pieces, count, offset, [h](const iovec& piece, off_t at) {
    return ::pwrite(h, piece.iov_base, piece.iov_len, at);
  });
}

ssize_t read_each(handle h, const iovec* pieces, int count, std::int64_t offset) {
  return each_piece(pieces, count, offset, [h](const iovec& piece, off_t at) {
    return ::pread(h, piece.iov_base, piece.iov_len, at);
  });
}

int wait_ready(handle h, readiness what) {
  pollfd want{h, static_cast<short>(what == readiness::readable ? POLLIN : POLLOUT), 0};
  return ::poll(&want, 1, -1) < 0 ? -1 : 0;
}

int resize(handle h, std::int64_t size) { return ::ftruncate(h, static_cast<off_t>(size)); }

int file_size_limit(std::uint64_t* out) {
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
          .device = static_cast<std::uint64_t>(st.st_dev),
          .inode = static_cast<std::uint64_t>(st.st_ino)};
}

int facts(handle h, file_facts* out) {
  struct stat st {};
  if (::fstat(h, &st) != 0) return -1;
  *out = facts_of(st);
  return 0;
}

int path_facts(const char* path, file_facts* out) {
  struct stat st {};
  if (::lstat(path, &st) != 0) return -1;
  *out = facts_of(st);
  return 0;
}

int state_with(handle h, handle_state* out, int direct_flag) {
  int flags = ::fcntl(h, F_GETFL);
  if (flags == -1) return -1;
  *out = {.append = (flags & O_APPEND) != 0,
          .direct = (flags & direct_flag) != 0,
          .non_blocking = (flags & O_NONBLOCK) != 0};
  return 0;
}

int set_state_with(handle h, const handle_state& state, int direct_flag) {
  if (state.direct && direct_flag == 0) return refuse(EINVAL);
  int flags = (state.append ? O_APPEND : 0) | (state.direct ? direct_flag : 0) |
              (state.non_blocking ? O_NONBLOCK : 0);
  return ::fcntl(h, F_SETFL, flags);
}

int advise_sequential(handle h) {
#ifdef SLUICE_HAVE_POSIX_FADVISE
  return from_returned(::posix_fadvise(h, 0, 0, POSIX_FADV_SEQUENTIAL));
#else
  (void)h;
  return 0;
#endif
}

std::int64_t seek_region(handle h, std::int64_t offset, region what) {
#if defined(SEEK_DATA) && defined(SEEK_HOLE)
  return ::lseek(h, static_cast<off_t>(offset), what == region::data ? SEEK_DATA : SEEK_HOLE);
#else
  (void)h, (void)offset, (void)what;
  return refuse(EINVAL);
#endif
}

int rename(handle from_dir, const char* from, handle to_dir, const char* to) {
  return ::renameat(from_dir, from, to_dir, to);
}

int remove(handle dir, const char* name) { return ::unlinkat(dir, name, 0); }

int make_directory(const char* path, unsigned permissions) {
  return ::mkdir(path, static_cast<mode_t>(permissions));
}

int lock(handle h, lock_kind kind) {
  return ::flock(h, (kind == lock_kind::exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB);
}

ssize_t read_link(handle h, char* buffer, size_t size) { return ::readlinkat(h, "", buffer, size); }

std::uint32_t effective_user() { return ::geteuid(); }

int set_owner(handle h, std::uint32_t owner, std::uint32_t group) {
  return ::fchown(h, owner, group);
}

int set_mode(handle h, unsigned mode) { return ::fchmod(h, static_cast<mode_t>(mode)); }

#if defined(SLUICE_HAVE_XATTR) && defined(__APPLE__)

namespace {
// macOS says ENOATTR where Linux says ENODATA, which the callers look for.
template <class Result>
Result linux_errno(Result result) {
  if (result == -1 && errno == ENOATTR) errno = ENODATA;
  return result;
}
}  // namespace

ssize_t list_attributes(const char* path, char* names, size_t size) {
  return ::listxattr(path, names, size, 0);
}
ssize_t get_attribute(const char* path, const char* name, void* value, size_t size) {
  return linux_errno(::getxattr(path, name, value, size, 0, 0));
}
int set_attribute(handle h, const char* name, const void* value, size_t size) {
  return ::fsetxattr(h, name, value, size, 0, 0);
}
int remove_attribute(handle h, const char* name) { return linux_errno(::fremovexattr(h, name, 0)); }

#elif defined(SLUICE_HAVE_XATTR)

ssize_t list_attributes(const char* path, char* names, size_t size) {
  return ::listxattr(path, names, size);
}
ssize_t get_attribute(const char* path, const char* name, void* value, size_t size) {
  return ::getxattr(path, name, value, size);
}
int set_attribute(handle h, const char* name, const void* value, size_t size) {
  return ::fsetxattr(h, name, value, size, 0);
}
int remove_attribute(handle h, const char* name) { return ::fremovexattr(h, name); }

#else

ssize_t list_attributes(const char*, char*, size_t) { return refuse(ENOSYS); }
ssize_t get_attribute(const char*, const char*, void*, size_t) { return refuse(ENOSYS); }
int set_attribute(handle, const char*, const void*, size_t) { return refuse(ENOSYS); }
int remove_attribute(handle, const char*) { return refuse(ENOSYS); }

#endif

ssize_t read_security(handle, void*, size_t, unsigned*) { return refuse(ENOSYS); }
int set_file_attributes(handle, std::uint32_t) { return refuse(ENOSYS); }
int rename_held(handle, handle, const char*) { return refuse(ENOSYS); }
int remove_held(handle) { return refuse(ENOSYS); }

}  // namespace sluice::detail::posix
