// sluice-bench: opening and finishing a file the way the limits (raw system
// calls) and sluice's methods do, with the error checks a careful program
// makes, so that a failed write fails its method instead of posting a
// figure; and reading a case's input with raw system calls. "Finish" is what ends every timed run:
// flush, fdatasync when the run includes it, close. The peers' files (stdio, std::ofstream, {fmt})
// are in peers/.
#pragma once

#include <fcntl.h>

#include <cstddef>
#include <cstdint>
#include <sluice/file.hpp>
#include <sluice/writer.hpp>
#include <string>
#include <utility>

#include "core/bench_case.hpp"
#include "core/raw_calls.hpp"

namespace sluice::bench {

// The buffer of the tuned peers and of the hand-written limit.
inline constexpr std::size_t big_buffer_size = 256 * 1024;

// Throws std::system_error with errno and `what`.
[[noreturn]] void throw_errno(const std::string& what);

// fdatasync (FlushFileBuffers on Windows) of the file at `path` through a
// descriptor of its own: for the streams that do not show theirs. Throws
// std::system_error.
void sync_path(const char* path);

// A descriptor of a fresh file: the raw system call methods.
class raw_file {
 public:
  // Opened `access` | O_CREAT | O_TRUNC (core/raw_calls.hpp's open_file);
  // `access` may be O_RDWR for a method that maps the file, or add O_DIRECT.
  // Throws std::system_error.
  explicit raw_file(const char* path, int access = O_WRONLY);
  raw_file(const raw_file&) = delete;
  raw_file& operator=(const raw_file&) = delete;
  ~raw_file();  // closes the descriptor if finish() was not reached

  // write(2) until all `size` bytes are in; restarts after EINTR.
  void write_all(const char* data, std::size_t size);
  // One writev(2) per max_io_pieces buffers; a short writev is completed by
  // write_all. Not where vectored_io_missing is set.
  void writev_all(const io_piece* iov, std::size_t count);
  // fdatasync now (a transaction's commit). Throws std::system_error.
  void sync_data();
  // fdatasync when `sync`, then close. Throws std::system_error.
  void finish(bool sync);
  int fd() const noexcept { return fd_; }

 private:
  int fd_;
};

// A descriptor of an existing file, for reading: the raw system call
// methods of the reading scenarios. Every call throws std::system_error on
// failure; the descriptor is closed on destruction.
class raw_input {
 public:
  explicit raw_input(const char* path);  // O_RDONLY
  raw_input(const raw_input&) = delete;
  raw_input& operator=(const raw_input&) = delete;
  ~raw_input();

  // One read(2) of at most `size` bytes, restarted after EINTR: the count
  // read, 0 at the end of the file.
  std::size_t read_some(char* data, std::size_t size);
  // pread(2) until `size` bytes from `offset` are in; throws if the file
  // ends first.
  void read_exactly_at(char* data, std::size_t size, std::uint64_t offset);
  // One preadv(2) per max_io_pieces buffers from `offset`; a short one is
  // completed by read_exactly_at. Not where vectored_io_missing is set.
  void readv_exactly_at(const io_piece* iov, std::size_t count, std::uint64_t offset);
  std::uint64_t size() const;  // fstat
  int fd() const noexcept { return fd_; }

 private:
  int fd_;
};

// Adds `m`, a row that calls writev or preadv (raw_file::writev_all,
// raw_input::readv_exactly_at), to `c`; lists it as not run where the
// system has neither (vectored_io_missing).
inline void add_vectored_row(bench_case& c, method m) {
  if (vectored_io_missing)
    add_not_run(c, display_name(m), vectored_io_missing);
  else
    c.methods.push_back(std::move(m));
}

// A sluice writer of t.path with `options` and t.buffer_size (0: sluice's
// default).
sluice::writer open_writer(const target& t, sluice::writer_options options = {});
// The options of a sluice::ostream of t: t.buffer_size, and when t.sync
// durability_mode::data_on_close, so that close() ends with the fdatasync.
sluice::writer_options ostream_options(const target& t);
void finish(sluice::writer& out, const target& t);  // close(), then its file's fdatasync if t.sync
void finish(sluice::file& out, const target& t);    // sync_data() when t.sync, close()

}  // namespace sluice::bench
