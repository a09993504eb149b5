// The real io_uring entries of detail::sys (liburing), or, when sluice was
// built without liburing, entries that fail with ENOSYS.
#pragma once

#include <sys/types.h>
#include <sys/uio.h>

#include <cstdint>

namespace sluice::detail {

int real_ring_open(unsigned entries, void** ring);
void real_ring_close(void* ring);
int real_ring_register(void* ring, const iovec* buffers, unsigned count);
int real_ring_write(void* ring, int fd, const void* data, unsigned size, off_t offset,
                    int buffer_index, std::uint64_t tag);
int real_ring_wait(void* ring, std::uint64_t* tag, int* result);

}  // namespace sluice::detail
