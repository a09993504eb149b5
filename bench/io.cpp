#include "io.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <stdexcept>
#include <string>
#include <system_error>

namespace sluice::bench {
namespace {

[[noreturn]] void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

// fdatasync of `path` through a descriptor of its own.
void sync_path(const char* path) {
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw_errno(std::string("open '") + path + "' for fdatasync");
  int result = ::fdatasync(fd);
  int error = errno;
  ::close(fd);
  if (result != 0) throw std::system_error(error, std::generic_category(), "fdatasync");
}

}  // namespace

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
  while (count > 0) {
    int batch = static_cast<int>(std::min<std::size_t>(count, IOV_MAX));
    ssize_t n = ::writev(fd_, iov, batch);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_errno("writev");
    }
    auto done = static_cast<std::size_t>(n);
    for (int i = 0; i < batch; ++i) {  // complete a short writev piece by piece
      std::size_t taken = std::min(done, iov[i].iov_len);
      done -= taken;
      if (taken < iov[i].iov_len)
        write_all(static_cast<const char*>(iov[i].iov_base) + taken, iov[i].iov_len - taken);
    }
    iov += batch;
    count -= static_cast<std::size_t>(batch);
  }
}

void raw_file::finish(bool sync) {
  if (sync && ::fdatasync(fd_) != 0) throw_errno("fdatasync");
  int result = ::close(fd_);
  fd_ = -1;
  if (result != 0) throw_errno("close");
}

stdio_file::stdio_file(const char* path, std::size_t buffer_size)
    : buffer_(buffer_size ? std::make_unique_for_overwrite<char[]>(buffer_size) : nullptr),
      file_(std::fopen(path, "wb")) {
  if (!file_) throw_errno(std::string("fopen '") + path + "'");
  if (buffer_ && std::setvbuf(file_, buffer_.get(), _IOFBF, buffer_size) != 0) {
    std::fclose(file_);
    throw std::runtime_error("setvbuf refused a buffer");
  }
}

stdio_file::~stdio_file() {
  if (file_) std::fclose(file_);
}

void stdio_file::sync_data() {
  if (std::fflush(file_) != 0) throw_errno("fflush");
  if (::fdatasync(fileno(file_)) != 0) throw_errno("fdatasync");
}

void stdio_file::finish(bool sync) {
  bool failed = std::fflush(file_) != 0 || std::ferror(file_);
  int error = errno;
  if (!failed && sync && ::fdatasync(fileno(file_)) != 0) throw_errno("fdatasync");
  int result = std::fclose(file_);
  file_ = nullptr;
  if (failed) throw std::system_error(error, std::generic_category(), "fwrite");
  if (result != 0) throw_errno("fclose");
}

void finish(std::ofstream& out, const target& t) {
  out.flush();
  if (out && t.sync) sync_path(t.path);
  out.close();
  if (!out) throw std::runtime_error(std::string("std::ofstream failed writing '") + t.path + "'");
}

#ifdef SLUICE_BENCH_HAVE_FMT
void finish(fmt::ostream& out, const target& t) {
  out.flush();
  if (t.sync) sync_path(t.path);
  out.close();
}
#endif

sluice::writer open_writer(const target& t, sluice::writer_options options) {
  options.buffer_size = t.buffer_size;
  return sluice::writer(t.path, options);
}

sluice::writer_options ostream_options(const target& t) {
  return {.buffer_size = t.buffer_size,
          .durability = t.sync ? sluice::durability::data_on_close : sluice::durability::none};
}

// Closed first, as the ofstream and {fmt} peers are: close() may still cut
// the file to its size (caching::direct, preallocate), which the fdatasync
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
