#include "core/io.hpp"

#include <algorithm>
#include <cerrno>
#include <string>
#include <system_error>
#include <utility>

namespace sluice::bench {

void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

namespace {

// The `count` buffers at `iov` through transfer(first, n) (writev, preadv:
// the bytes moved), max_io_pieces at a time; then, for each buffer of a call
// in order, finish(buffer, bytes of it moved), which completes a buffer
// moved short.
template <class Transfer, class Finish>
void each_batch(const io_piece* iov, std::size_t count, Transfer&& transfer, Finish&& finish) {
  while (count > 0) {
    int batch = static_cast<int>(std::min<std::size_t>(count, max_io_pieces));
    std::size_t done = transfer(iov, batch);
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
  int fd = open_file(path, O_RDWR);
  try {
    sync_file_data(fd);
  } catch (...) {
    close_file(fd);
    throw;
  }
  close_file(fd);
}

raw_file::raw_file(const char* path, int access)
    : fd_(open_file(path, access | O_CREAT | O_TRUNC)) {}

raw_file::~raw_file() {
  if (fd_ >= 0) {
    try {
      close_file(fd_);
    } catch (const std::system_error&) {  // a destructor reports nothing: finish() does
    }
  }
}

void raw_file::write_all(const char* data, std::size_t size) {
  while (size > 0) {
    std::size_t n = write_some(fd_, data, size);
    if (n == 0) throw std::system_error(EIO, std::generic_category(), "write made no progress");
    data += n;
    size -= n;
  }
}

void raw_file::sync_data() { sync_file_data(fd_); }

void raw_file::writev_all(const io_piece* iov, std::size_t count) {
  each_batch(
      iov, count, [this](const io_piece* first, int n) { return write_gathered(fd_, first, n); },
      [this](const io_piece& piece, std::size_t taken) {
        if (taken < piece.iov_len)
          write_all(static_cast<const char*>(piece.iov_base) + taken, piece.iov_len - taken);
      });
}

void raw_file::finish(bool sync) {
  if (sync) sync_file_data(fd_);
  close_file(std::exchange(fd_, -1));
}

raw_input::raw_input(const char* path) : fd_(open_file(path, O_RDONLY)) {}

raw_input::~raw_input() {
  try {
    close_file(fd_);
  } catch (const std::system_error&) {  // nothing was written: nothing to lose
  }
}

std::size_t raw_input::read_some(char* data, std::size_t size) {
  return sluice::bench::read_some(fd_, data, size);
}

void raw_input::read_exactly_at(char* data, std::size_t size, std::uint64_t offset) {
  while (size > 0) {
    std::size_t n = read_some_at(fd_, data, size, offset);
    if (n == 0)
      throw std::system_error(EIO, std::generic_category(),
                              "pread: the file ends at " + std::to_string(offset));
    data += n;
    size -= n;
    offset += n;
  }
}

void raw_input::readv_exactly_at(const io_piece* iov, std::size_t count, std::uint64_t offset) {
  each_batch(
      iov, count,
      [this, &offset](const io_piece* first, int n) {
        return read_scattered_at(fd_, first, n, offset);
      },
      [this, &offset](const io_piece& piece, std::size_t taken) {
        if (taken < piece.iov_len)
          read_exactly_at(static_cast<char*>(piece.iov_base) + taken, piece.iov_len - taken,
                          offset + taken);
        offset += piece.iov_len;
      });
}

std::uint64_t raw_input::size() const { return file_size(fd_); }

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
