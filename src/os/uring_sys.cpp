// detail::sys's async entries on Linux: liburing calls on a heap-allocated
// io_uring (the async_queue), errno style. Without liburing (SLUICE_HAVE_LIBURING undefined)
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

io_uring* ring_of(async_queue* queue) { return reinterpret_cast<io_uring*>(queue); }

// The tag of async_drain's own request.
constexpr std::uint64_t drain_tag = ~std::uint64_t{0};

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
int real_async_open(unsigned entries, async_queue** queue) {
  auto* opened = static_cast<io_uring*>(std::calloc(1, sizeof(io_uring)));
  if (!opened) {
    errno = ENOMEM;
    return -1;
  }
  if (int rc = io_uring_queue_init(entries, opened, 0); rc < 0) {
    std::free(opened);
    return from_liburing(rc);
  }
  *queue = reinterpret_cast<async_queue*>(opened);
  return 0;
}

void real_async_close(async_queue* queue) {
  io_uring_queue_exit(ring_of(queue));
  std::free(ring_of(queue));
}

int real_async_register(async_queue* queue, const iovec* buffers, unsigned count) {
  return from_liburing(io_uring_register_buffers(ring_of(queue), buffers, count));
}

// The callers keep at most as many writes in flight as the ring has
// entries, so a submission slot is always free.
int real_async_submit(async_queue* queue, handle fd, const void* data, unsigned size,
                      std::int64_t offset, int buffer_index, std::uint64_t tag) {
  io_uring_sqe* write = io_uring_get_sqe(ring_of(queue));
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
    submitted = io_uring_submit(ring_of(queue));
  } while (submitted == -EINTR);
  if (submitted == 0) submitted = -EAGAIN;
  return from_liburing(submitted);
}

int real_async_complete(async_queue* queue, std::uint64_t* tag, int* result) {
  io_uring_cqe* done = nullptr;
  if (int rc = io_uring_wait_cqe(ring_of(queue), &done); rc < 0) return from_liburing(rc);
  *tag = io_uring_cqe_get_data64(done);
  *result = done->res;
  io_uring_cqe_seen(ring_of(queue), done);
  return 0;
}

// A no-op flagged IOSQE_IO_DRAIN starts only once every request submitted
// before it has completed: its completion, found among the others (all
// dropped), says that none is under way. Waiting is not interrupted: a
// signal only restarts it.
int real_async_drain(async_queue* queue) {
  io_uring* ring = ring_of(queue);
  io_uring_sqe* marker = io_uring_get_sqe(ring);
  if (!marker) {
    errno = EBUSY;
    return -1;
  }
  io_uring_prep_nop(marker);
  io_uring_sqe_set_flags(marker, IOSQE_IO_DRAIN);
  io_uring_sqe_set_data64(marker, drain_tag);
  int submitted;
  do {
    submitted = io_uring_submit(ring);
  } while (submitted == -EINTR);
  if (submitted <= 0) return from_liburing(submitted == 0 ? -EAGAIN : submitted);
  for (;;) {
    io_uring_cqe* done = nullptr;
    int rc;
    do {
      rc = io_uring_wait_cqe(ring, &done);
    } while (rc == -EINTR);
    if (rc < 0) return from_liburing(rc);
    bool drained = io_uring_cqe_get_data64(done) == drain_tag;
    io_uring_cqe_seen(ring, done);
    if (drained) return 0;
  }
}

#else

int real_async_open(unsigned, async_queue**) {
  errno = ENOSYS;
  return -1;
}
void real_async_close(async_queue*) {}
int real_async_register(async_queue*, const iovec*, unsigned) {
  errno = ENOSYS;
  return -1;
}
int real_async_submit(async_queue*, handle, const void*, unsigned, std::int64_t, int,
                      std::uint64_t) {
  errno = ENOSYS;
  return -1;
}
int real_async_complete(async_queue*, std::uint64_t*, int*) {
  errno = ENOSYS;
  return -1;
}
int real_async_drain(async_queue*) {
  errno = ENOSYS;
  return -1;
}

#endif

}  // namespace sluice::detail
