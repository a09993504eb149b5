// The portable backend's entries that do what Linux does with calls of its
// own, with portable ones (or refuse it): os/posix_calls.hpp says what each
// does and why.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "os/posix_calls.hpp"

namespace sluice::detail::posix {
namespace {

// fdatasync where the system has it, else fsync (which syncs more).
int plain_sync_data(handle h) {
#ifdef SLUICE_HAVE_FDATASYNC
  return ::fdatasync(h);
#else
  return ::fsync(h);
#endif
}

// F_FULLFSYNC, or `plain` where the system or the filesystem has none
// (ENOTSUP, EINVAL or ENOTTY: a refusal, not a failed write).
int full_sync(handle h, int (*plain)(int)) {
#ifdef F_FULLFSYNC
  if (::fcntl(h, F_FULLFSYNC) != -1) return 0;
  if (errno != ENOTSUP && errno != EINVAL && errno != ENOTTY) return -1;
#endif
  return plain(h);
}

// The names `stream` gives, into `names`, a block at a time (see
// list_directory); `fd` is the stream's descriptor.
ssize_t fill_names(DIR* stream, int fd, char* names, size_t size) {
  size_t used = 0, block_used = 0;
  off_t block_start = ::lseek(fd, 0, SEEK_CUR);
  if (block_start == -1) return -1;
  for (off_t before = block_start;;) {
    errno = 0;
    const dirent* entry = ::readdir(stream);
    if (entry == nullptr) return errno == 0 ? static_cast<ssize_t>(used) : -1;
    off_t after = ::lseek(fd, 0, SEEK_CUR);
    if (after == -1) return -1;
    if (after != before) block_start = before, block_used = used;  // this entry read a block
    before = after;
    size_t length = std::strlen(entry->d_name) + 1;
    if (used + length > size) {
      if (block_used == 0) return refuse(EOVERFLOW);
      return ::lseek(fd, block_start, SEEK_SET) == -1 ? -1 : static_cast<ssize_t>(block_used);
    }
    std::memcpy(names + used, entry->d_name, length);
    used += length;
  }
}

}  // namespace

handle open(handle dir, const char* path, const open_request& how) {
  if (how.unnamed_temporary) return refuse(EOPNOTSUPP);
#ifndef F_NOCACHE
  if (how.direct) return refuse(EINVAL);
#endif
  handle h = ::openat(dir, path, open_flags(how), static_cast<mode_t>(how.permissions));
#ifdef F_NOCACHE
  if (h >= 0 && how.direct && ::fcntl(h, F_NOCACHE, 1) == -1) {
    int error = errno;
    ::close(h);
    return refuse(error);
  }
#endif
  return h;
}

int sync_data(handle h) { return full_sync(h, plain_sync_data); }

int sync_all(handle h) { return full_sync(h, ::fsync); }

int preallocate(handle h, std::int64_t offset, std::int64_t length, space_mode how) {
#if defined(SLUICE_HAVE_POSIX_FALLOCATE) && !defined(__GLIBC__)
  if (how == space_mode::grow) {
    int error = ::posix_fallocate(h, static_cast<off_t>(offset), static_cast<off_t>(length));
    // FreeBSD says EINVAL for a filesystem without it (ZFS).
    return from_returned(error == EINVAL ? EOPNOTSUPP : error);
  }
#else
  (void)h, (void)offset, (void)length, (void)how;
#endif
  return refuse(EOPNOTSUPP);
}

int state(handle h, handle_state* out) { return state_with(h, out, 0); }

int set_state(handle h, const handle_state& state) {
#ifdef F_NOCACHE
  handle_state flags = state;
  flags.direct = false;
  if (set_state_with(h, flags, 0) != 0) return -1;
  return ::fcntl(h, F_NOCACHE, state.direct ? 1 : 0) == -1 ? -1 : 0;
#else
  return set_state_with(h, state, 0);
#endif
}

int filesystem_of(handle, filesystem* out) {
  *out = filesystem::other;
  return 0;
}

int direct_alignment(handle, direct_io_facts*) { return refuse(EOPNOTSUPP); }

int count_extents(handle, std::uint64_t*) { return refuse(EOPNOTSUPP); }

int writeback(handle h, std::int64_t, std::int64_t, bool wait) {
  if (::lseek(h, 0, SEEK_CUR) == -1) return -1;
  return wait ? plain_sync_data(h) : 0;
}

int drop_cache(handle h, std::int64_t offset, std::int64_t length) {
#if defined(SLUICE_HAVE_POSIX_FADVISE)
  return from_returned(::posix_fadvise(h, static_cast<off_t>(offset), static_cast<off_t>(length),
                                       POSIX_FADV_DONTNEED));
#elif defined(F_NOCACHE)
  (void)offset, (void)length;
  return ::fcntl(h, F_NOCACHE, 1) == -1 ? -1 : 0;
#else
  (void)h, (void)offset, (void)length;
  return 0;
#endif
}

int set_no_copy_on_write(handle) { return refuse(EOPNOTSUPP); }

ssize_t list_directory(handle dir, char* names, size_t size) {
  int copy = ::fcntl(dir, F_DUPFD_CLOEXEC, 0);
  if (copy == -1) return -1;
  DIR* stream = ::fdopendir(copy);
  if (stream == nullptr) {
    int error = errno;
    ::close(copy);
    return refuse(error);
  }
  ssize_t listed = fill_names(stream, copy, names, size);
  int error = errno;
  ::closedir(stream);
  errno = error;
  return listed;
}

int can_link_unnamed(handle) { return refuse(EOPNOTSUPP); }

int link_unnamed(handle, handle, const char*) { return refuse(EOPNOTSUPP); }

int on_procfs(handle) { return 0; }

int mount_root(handle h) {
  struct stat self {
  }, parent{};
  if (::fstat(h, &self) != 0) return -1;
  if (!S_ISDIR(self.st_mode)) return 0;
  if (::fstatat(h, "..", &parent, 0) != 0) return -1;
  return self.st_dev != parent.st_dev || self.st_ino == parent.st_ino ? 1 : 0;
}

}  // namespace sluice::detail::posix
