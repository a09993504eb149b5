#include "core/io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <string>
#include <system_error>

namespace sluice::bench {

void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

namespace {

// The `count` buffers at `iov` through transfer(first, n) (writev, preadv:
// the bytes moved, or -1 and errno), IOV_MAX at a time, restarted after
// EINTR; then, for each buffer of a call in order, finish(buffer, bytes of
// it moved), which completes a buffer moved short. Throws std::system_error
// naming `call`.
template <class Transfer, class Finish>
void each_batch(const iovec* iov, std::size_t count, const char* call, Transfer&& transfer,
                Finish&& finish) {
  while (count > 0) {
    int batch = static_cast<int>(std::min<std::size_t>(count, IOV_MAX));
    ssize_t n = transfer(iov, batch);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_errno(call);
    }
    auto done = static_cast<std::size_t>(n);
    for (int i = 0; i < batch; ++i) {
      std::size_t taken = std::min(done, iov[i].iov_len);
      done -= taken;
      finish(iov[i], taken);
    }
    iov += batch;
    count -= static_cast<std::size_t>(batch);
  }
}

}  // namespace

void sync_path(const char* path) {
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw_errno(std::string("open '") + path + "' for fdatasync");
  int result = ::fdatasync(fd);
  int error = errno;
  ::close(fd);
  if (result != 0) throw std::system_error(error, std::generic_category(), "fdatasync");
}

raw_file::raw_file(const char* path, int access)
    : fd_(::open(path, access | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) {
  if (fd_ < 0) throw_errno(std::string("open '") + path + "'");
}

raw_file::~raw_file() {
  if (fd_ >= 0) ::close(fd_);
}

void raw_file::write_all(const char* data, std::size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd_, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_errno("write");
    }
    if (n == 0) throw std::system_error(EIO, std::generic_category(), "write made no progress");
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}

void raw_file::sync_data() {
  if (::fdatasync(fd_) != 0) throw_errno("fdatasync");
}

void raw_file::writev_all(const iovec* iov, std::size_t count) {
  each_batch(
      iov, count, "writev", [this](const iovec* first, int n) { return ::writev(fd_, first, n); },
      [this](const iovec& piece, std::size_t taken) {
        if (taken < piece.iov_len)
          write_all(static_cast<const char*>(piece.iov_base) + taken, piece.iov_len - taken);
      });
}

void raw_file::finish(bool sync) {
  if (sync && ::fdatasync(fd_) != 0) throw_errno("fdatasync");
  int result = ::close(fd_);
  fd_ = -1;
  if (result != 0) throw_errno("close");
}

raw_input::raw_input(const char* path) : fd_(::open(path, O_RDONLY | O_CLOEXEC)) {
  if (fd_ < 0) throw_errno(std::string("open '") + path + "' to read");
}

raw_input::~raw_input() { ::close(fd_); }

std::size_t raw_input::read_some(char* data, std::size_t size) {
  for (;;) {
    ssize_t n = ::read(fd_, data, size);
    if (n >= 0) return static_cast<std::size_t>(n);
    if (errno != EINTR) throw_errno("read");
  }
}

void raw_input::read_exactly_at(char* data, std::size_t size, std::uint64_t offset) {
  while (size > 0) {
    ssize_t n = ::pread(fd_, data, size, static_cast<off_t>(offset));
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_errno("pread");
    }
    if (n == 0)
      throw std::system_error(EIO, std::generic_category(),
                              "pread: the file ends at " + std::to_string(offset));
    data += n;
    size -= static_cast<std::size_t>(n);
    offset += static_cast<std::uint64_t>(n);
  }
}

void raw_input::readv_exactly_at(const iovec* iov, std::size_t count, std::uint64_t offset) {
  each_batch(
      iov, count, "preadv",
      [this, &offset](const iovec* first, int n) {
        return ::preadv(fd_, first, n, static_cast<off_t>(offset));
      },
      [this, &offset](const iovec& piece, std::size_t taken) {
        if (taken < piece.iov_len)
          read_exactly_at(static_cast<char*>(piece.iov_base) + taken, piece.iov_len - taken,
                          offset + taken);
        offset += piece.iov_len;
      });
}

std::uint64_t raw_input::size() const {
  struct stat info {};
  if (::fstat(fd_, &info) != 0) throw_errno("fstat");
  return static_cast<std::uint64_t>(info.st_size);
}

sluice::writer open_writer(const target& t, sluice::writer_options options) {
  options.buffer_size = t.buffer_size;
  return sluice::writer(t.path, options);
}

sluice::writer_options ostream_options(const target& t) {
  return {.buffer_size = t.buffer_size,
          .durability =
              t.sync ? sluice::durability_mode::data_on_close : sluice::durability_mode::none};
}

// Closed first, as the ofstream and {fmt} peers are: close() may still cut
// the file to its size (caching_mode::direct, preallocate), which the fdatasync
// must cover. The writer's own file is synced, which is t.companion for
// the second writer of a two-file run.
void finish(sluice::writer& out, const target& t) {
  std::string path = out.path();
  out.close();
  if (t.sync) sync_path(path.c_str());
}

void finish(sluice::file& out, const target& t) {
  if (t.sync) out.sync_data();
  out.close();
}

}  // namespace sluice::bench
