// sluice-bench: the few system calls the limits (the raw rows) and the
// bench's own checks make on a descriptor, one file per platform:
// raw_calls.cpp (POSIX: open, write, pread, writev, fdatasync...) and
// raw_calls_win32.cpp (the C runtime's descriptors, with ReadFile and
// FlushFileBuffers on their handles). Every call throws std::system_error
// naming the call on failure (errno on POSIX, GetLastError on Windows) and
// restarts after EINTR; none buffers.
#pragma once

#include <cstddef>
#include <cstdint>

#ifdef _WIN32
namespace sluice::bench {
// A piece of memory of a gathered write or a scattered read.
struct io_piece {
  void* iov_base;
  std::size_t iov_len;
};
inline constexpr int max_io_pieces = 1024;
}  // namespace sluice::bench
#else
#include <sys/uio.h>

#include <climits>
namespace sluice::bench {
using io_piece = iovec;  // what writev(2) and preadv(2) take
inline constexpr int max_io_pieces = IOV_MAX;
}  // namespace sluice::bench
#endif

namespace sluice::bench {

// nullptr where writev(2) and preadv(2) exist; else why the rows that use
// them are not run (Windows: no gathered write on a cached file).
extern const char* const vectored_io_missing;

// open(path, flags | close-on-exec (POSIX) or binary, not inherited
// (Windows), 0644); flags are <fcntl.h>'s O_*.
int open_file(const char* path, int flags);
void close_file(int fd);
// One write of at most `size` bytes: the count written.
std::size_t write_some(int fd, const char* data, std::size_t size);
// One read of at most `size` bytes: the count read, 0 at the end.
std::size_t read_some(int fd, char* data, std::size_t size);
// One positional read (pread): the count read, 0 at the end.
std::size_t read_some_at(int fd, char* data, std::size_t size, std::uint64_t offset);
// One positional write (pwrite): the count written.
std::size_t write_some_at(int fd, const char* data, std::size_t size, std::uint64_t offset);
// One writev / preadv of `count` (at most max_io_pieces) pieces: the count
// moved. Where vectored_io_missing is set they throw ENOSYS.
std::size_t write_gathered(int fd, const io_piece* pieces, int count);
std::size_t read_scattered_at(int fd, const io_piece* pieces, int count, std::uint64_t offset);
// fdatasync (POSIX) or FlushFileBuffers (Windows).
void sync_file_data(int fd);
void resize_file(int fd, std::uint64_t size);  // ftruncate
std::uint64_t file_size(int fd);               // fstat
std::size_t memory_page_size();                // sysconf(_SC_PAGESIZE), GetSystemInfo

}  // namespace sluice::bench
