// detail::sys's io_uring entries: liburing calls on a heap-allocated
// io_uring, errno style. Without liburing (SLUICE_HAVE_LIBURING undefined)
// they fail with ENOSYS, and write_behind keeps its thread.
#include "os/uring_sys.hpp"

#include <cerrno>

#ifdef SLUICE_HAVE_LIBURING
#include <liburing.h>

#include <cstdlib>
#endif

namespace sluice::detail {

#ifdef SLUICE_HAVE_LIBURING
namespace {

io_uring* ring_of(void* ring) { return static_cast<io_uring*>(ring); }

// liburing returns -errno; the seam returns -1 and sets errno.
int from_liburing(int result) {
  if (result >= 0) return 0;
  errno = -result;
  return -1;
}

}  // namespace

// The ring, a C struct, comes from calloc and goes back with free: a
// program that replaces some forms of operator new and delete but not
// others (the nothrow one) cannot mismatch them here.
int real_ring_open(unsigned entries, void** ring) {
  auto* opened = static_cast<io_uring*>(std::calloc(1, sizeof(io_uring)));
  if (!opened) {
    errno = ENOMEM;
    return -1;
  }
  if (int rc = io_uring_queue_init(entries, opened, 0); rc < 0) {
    std::free(opened);
    return from_liburing(rc);
  }
  *ring = opened;
  return 0;
}

void real_ring_close(void* ring) {
  io_uring_queue_exit(ring_of(ring));
  std::free(ring);
}

int real_ring_register(void* ring, const iovec* buffers, unsigned count) {
  return from_liburing(io_uring_register_buffers(ring_of(ring), buffers, count));
}

// The callers keep at most as many writes in flight as the ring has
// entries, so a submission slot is always free.
int real_ring_write(void* ring, int fd, const void* data, unsigned size, off_t offset,
                    int buffer_index, std::uint64_t tag) {
  io_uring_sqe* write = io_uring_get_sqe(ring_of(ring));
  if (!write) {
    errno = EBUSY;
    return -1;
  }
  if (buffer_index >= 0)
    io_uring_prep_write_fixed(write, fd, data, size, static_cast<__u64>(offset), buffer_index);
  else
    io_uring_prep_write(write, fd, data, size, static_cast<__u64>(offset));
  io_uring_sqe_set_data64(write, tag);
  int submitted;
  do {
    submitted = io_uring_submit(ring_of(ring));
  } while (submitted == -EINTR);
  if (submitted == 0) submitted = -EAGAIN;
  return from_liburing(submitted);
}

int real_ring_wait(void* ring, std::uint64_t* tag, int* result) {
  io_uring_cqe* done = nullptr;
  if (int rc = io_uring_wait_cqe(ring_of(ring), &done); rc < 0) return from_liburing(rc);
  *tag = io_uring_cqe_get_data64(done);
  *result = done->res;
  io_uring_cqe_seen(ring_of(ring), done);
  return 0;
}

#else

int real_ring_open(unsigned, void**) {
  errno = ENOSYS;
  return -1;
}
void real_ring_close(void*) {}
int real_ring_register(void*, const iovec*, unsigned) {
  errno = ENOSYS;
  return -1;
}
int real_ring_write(void*, int, const void*, unsigned, off_t, int, std::uint64_t) {
  errno = ENOSYS;
  return -1;
}
int real_ring_wait(void*, std::uint64_t*, int*) {
  errno = ENOSYS;
  return -1;
}

#endif

}  // namespace sluice::detail
