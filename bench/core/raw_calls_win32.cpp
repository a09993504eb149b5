// The raw calls on Windows: the C runtime's descriptors (what open() gives
// a C program there), opened binary and not inherited; positional reads and
// the data flush go to the descriptor's HANDLE (ReadFile with an
// OVERLAPPED offset, FlushFileBuffers). Windows has no writev or preadv for
// a cached file (WriteFileGather wants unbuffered, page-sized pieces).
#include <fcntl.h>
#include <io.h>
#include <sys/stat.h>
#include <windows.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <string>
#include <system_error>

#include "core/raw_calls.hpp"

namespace sluice::bench {
namespace {

[[noreturn]] void fail_errno(const std::string& call) {
  throw std::system_error(errno, std::generic_category(), call);
}

[[noreturn]] void fail_windows(const char* call) {
  throw std::system_error(static_cast<int>(::GetLastError()), std::system_category(), call);
}

HANDLE handle_of(int fd) {
  auto handle = reinterpret_cast<HANDLE>(::_get_osfhandle(fd));
  if (handle == INVALID_HANDLE_VALUE) fail_errno("_get_osfhandle");
  return handle;
}

// The C runtime's calls take an unsigned int count.
unsigned clamp_count(std::size_t size) {
  return static_cast<unsigned>(std::min<std::size_t>(size, INT_MAX));
}

OVERLAPPED at_offset(std::uint64_t offset) {
  OVERLAPPED at{};
  at.Offset = static_cast<DWORD>(offset);
  at.OffsetHigh = static_cast<DWORD>(offset >> 32);
  return at;
}

}  // namespace

const char* const vectored_io_missing =
    "Windows has no writev/preadv for a cached file (WriteFileGather and ReadFileScatter take "
    "unbuffered, page-sized pieces only)";

int open_file(const char* path, int flags) {
  int fd = ::_open(path, flags | _O_BINARY | _O_NOINHERIT, _S_IREAD | _S_IWRITE);
  if (fd < 0) fail_errno(std::string("open '") + path + "'");
  return fd;
}

void close_file(int fd) {
  if (::_close(fd) != 0) fail_errno("close");
}

std::size_t write_some(int fd, const char* data, std::size_t size) {
  int n = ::_write(fd, data, clamp_count(size));
  if (n < 0) fail_errno("write");
  return static_cast<std::size_t>(n);
}

std::size_t read_some(int fd, char* data, std::size_t size) {
  int n = ::_read(fd, data, clamp_count(size));
  if (n < 0) fail_errno("read");
  return static_cast<std::size_t>(n);
}

std::size_t read_some_at(int fd, char* data, std::size_t size, std::uint64_t offset) {
  OVERLAPPED at = at_offset(offset);
  DWORD n = 0;
  if (!::ReadFile(handle_of(fd), data, clamp_count(size), &n, &at)) {
    if (::GetLastError() == ERROR_HANDLE_EOF) return 0;
    fail_windows("ReadFile");
  }
  return n;
}

std::size_t write_some_at(int fd, const char* data, std::size_t size, std::uint64_t offset) {
  OVERLAPPED at = at_offset(offset);
  DWORD n = 0;
  if (!::WriteFile(handle_of(fd), data, clamp_count(size), &n, &at)) fail_windows("WriteFile");
  return n;
}

std::size_t write_gathered(int, const io_piece*, int) {
  throw std::system_error(ENOSYS, std::generic_category(), vectored_io_missing);
}

std::size_t read_scattered_at(int, const io_piece*, int, std::uint64_t) {
  throw std::system_error(ENOSYS, std::generic_category(), vectored_io_missing);
}

void sync_file_data(int fd) {
  if (!::FlushFileBuffers(handle_of(fd))) fail_windows("FlushFileBuffers");
}

void resize_file(int fd, std::uint64_t size) {
  int error = ::_chsize_s(fd, static_cast<long long>(size));
  if (error != 0) throw std::system_error(error, std::generic_category(), "_chsize_s");
}

std::uint64_t file_size(int fd) {
  struct _stat64 info {};
  if (::_fstat64(fd, &info) != 0) fail_errno("fstat");
  return static_cast<std::uint64_t>(info.st_size);
}

std::size_t memory_page_size() {
  SYSTEM_INFO info{};
  ::GetSystemInfo(&info);
  return info.dwPageSize;
}

}  // namespace sluice::bench
