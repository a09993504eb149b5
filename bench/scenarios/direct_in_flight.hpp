// sluice-bench: the limit of O_DIRECT writing with several writes in flight,
// as `fio --direct=1 --ioengine=io_uring --iodepth=8 --bs=1M` measures it.
// Built only where liburing is found (SLUICE_BENCH_HAVE_URING).
#pragma once

#include <cstddef>
#include <cstdint>

namespace sluice::bench {

// Writes `size` bytes to `fd` (opened with O_DIRECT) from offset 0, in
// writes of `piece` bytes taken from `data` (page aligned, `piece` long,
// the same bytes each time), keeping `depth` of them in flight through one
// io_uring. A last piece shorter than `piece` is written padded to whole
// `block`s; the caller cuts the file to `size`. Throws std::system_error on
// any failure or short write.
void write_direct_in_flight(int fd, const char* data, std::size_t piece, std::uint64_t size,
                            std::size_t block, unsigned depth);

}  // namespace sluice::bench
