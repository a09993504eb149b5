// The Linux backend's asynchronous writes (detail::sys's async entries) over
// io_uring (liburing), or, when sluice was built without liburing, entries
// that fail with ENOSYS.
#pragma once

#include <sys/types.h>
#include <sys/uio.h>

#include <cstdint>

#include "os/sys.hpp"

namespace sluice::detail {

int real_async_open(unsigned entries, async_queue** queue);
void real_async_close(async_queue* queue);
int real_async_register(async_queue* queue, const iovec* buffers, unsigned count);
int real_async_submit(async_queue* queue, handle h, const void* data, unsigned size,
                      std::int64_t offset, int buffer_index, std::uint64_t tag);
int real_async_complete(async_queue* queue, std::uint64_t* tag, int* result);
int real_async_drain(async_queue* queue);

}  // namespace sluice::detail
