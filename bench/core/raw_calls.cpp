#include "core/raw_calls.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

namespace sluice::bench {
namespace {

[[noreturn]] void fail(const char* call) {
  throw std::system_error(errno, std::generic_category(), call);
}

// `call()` until it does not fail with EINTR: its count, or throws naming `what`.
template <class Call>
std::size_t restarted(const char* what, Call&& call) {
  for (;;) {
    ssize_t n = call();
    if (n >= 0) return static_cast<std::size_t>(n);
    if (errno != EINTR) fail(what);
  }
}

}  // namespace

const char* const vectored_io_missing = nullptr;

int open_file(const char* path, int flags) {
  int fd = ::open(path, flags | O_CLOEXEC, 0644);
  if (fd < 0)
    throw std::system_error(errno, std::generic_category(), std::string("open '") + path + "'");
  return fd;
}

void close_file(int fd) {
  if (::close(fd) != 0) fail("close");
}

std::size_t write_some(int fd, const char* data, std::size_t size) {
  return restarted("write", [&] { return ::write(fd, data, size); });
}

std::size_t read_some(int fd, char* data, std::size_t size) {
  return restarted("read", [&] { return ::read(fd, data, size); });
}

std::size_t read_some_at(int fd, char* data, std::size_t size, std::uint64_t offset) {
  return restarted("pread", [&] { return ::pread(fd, data, size, static_cast<off_t>(offset)); });
}

std::size_t write_some_at(int fd, const char* data, std::size_t size, std::uint64_t offset) {
  return restarted("pwrite", [&] { return ::pwrite(fd, data, size, static_cast<off_t>(offset)); });
}

std::size_t write_gathered(int fd, const io_piece* pieces, int count) {
  return restarted("writev", [&] { return ::writev(fd, pieces, count); });
}

std::size_t read_scattered_at(int fd, const io_piece* pieces, int count, std::uint64_t offset) {
  return restarted("preadv",
                   [&] { return ::preadv(fd, pieces, count, static_cast<off_t>(offset)); });
}

void sync_file_data(int fd) {
  if (::fdatasync(fd) != 0) fail("fdatasync");
}

void resize_file(int fd, std::uint64_t size) {
  if (::ftruncate(fd, static_cast<off_t>(size)) != 0) fail("ftruncate");
}

std::uint64_t file_size(int fd) {
  struct stat info {};
  if (::fstat(fd, &info) != 0) fail("fstat");
  return static_cast<std::uint64_t>(info.st_size);
}

std::size_t memory_page_size() { return static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)); }

}  // namespace sluice::bench
