#include "core/io.hpp"

#include <fcntl.h>
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
