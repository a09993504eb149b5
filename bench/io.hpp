// sluice-bench: opening and finishing a file the way each kind of method
// does, with the error checks a careful program makes, so that a failed write
// fails its method instead of posting a figure. "Finish" is what ends every
// timed run: flush, fdatasync when the run includes it, close.
#pragma once

#include <fcntl.h>
#include <sys/uio.h>

#include <cstddef>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sluice/file.hpp>
#include <sluice/writer.hpp>
#include <string_view>
#include <utility>

#ifdef SLUICE_BENCH_HAVE_FMT
#include <fmt/os.h>
#endif

#include "bench_case.hpp"

namespace sluice::bench {

// The buffer of the tuned peers and of the hand-written limit.
inline constexpr std::size_t big_buffer_size = 256 * 1024;

#ifndef SLUICE_BENCH_HAVE_FMT
// The note that stands in for each {fmt} row.
inline constexpr std::string_view fmt_missing =
    "fmt::output_file: skipped, {fmt} not found at build time";
#endif

// A descriptor of a fresh file: the raw system call methods.
class raw_file {
 public:
  // Opened `access` | O_CREAT | O_TRUNC | O_CLOEXEC; `access` may be O_RDWR
  // for a method that maps the file, or add O_DIRECT. Throws
  // std::system_error.
  explicit raw_file(const char* path, int access = O_WRONLY);
  raw_file(const raw_file&) = delete;
  raw_file& operator=(const raw_file&) = delete;
  ~raw_file();  // closes the descriptor if finish() was not reached

  // write(2) until all `size` bytes are in; restarts after EINTR.
  void write_all(const char* data, std::size_t size);
  // One writev(2) per IOV_MAX buffers; a short writev is completed by write_all.
  void writev_all(const iovec* iov, std::size_t count);
  // fdatasync now (a transaction's commit). Throws std::system_error.
  void sync_data();
  // fdatasync when `sync`, then close. Throws std::system_error.
  void finish(bool sync);
  int fd() const noexcept { return fd_; }

 private:
  int fd_;
};

// fopen("wb"); with buffer_size > 0, a buffer of that size given by setvbuf,
// else stdio's own.
class stdio_file {
 public:
  stdio_file(const char* path, std::size_t buffer_size);  // throws std::system_error
  stdio_file(const stdio_file&) = delete;
  stdio_file& operator=(const stdio_file&) = delete;
  ~stdio_file();  // fcloses the stream if finish() was not reached

  std::FILE* get() const noexcept { return file_; }
  // fflush, then fdatasync (a transaction's commit). Throws std::system_error.
  void sync_data();
  // fflush, fdatasync when `sync`, fclose. Throws std::system_error, also
  // when an earlier write failed (ferror).
  void finish(bool sync);

 private:
  std::unique_ptr<char[]> buffer_;  // outlives file_: destroyed after the fclose
  std::FILE* file_;
};

// std::ofstream and fmt::ostream do not show their descriptor: their
// fdatasync goes through a second one on the same file. Both throw on failure.
void finish(std::ofstream& out, const target& t);
#ifdef SLUICE_BENCH_HAVE_FMT
void finish(fmt::ostream& out, const target& t);

// Opens fmt::output_file(t.path) with a 256 KiB buffer, calls write(out),
// then finish(). fmt::ostream's destructor flushes and lets a failure
// escape, which ends the process (std::terminate) when it runs while a
// write error unwinds. So after a failure the stream is moved to the heap
// and never destroyed: its buffer and descriptor leak, once per failed
// method, since a failed method is not run again.
template <class Write>
void write_with_fmt(const target& t, Write&& write) {
  auto out = fmt::output_file(t.path, fmt::buffer_size = big_buffer_size);
  try {
    write(out);
    finish(out, t);
  } catch (...) {
    static_cast<void>(new fmt::ostream(std::move(out)));
    throw;
  }
}
#endif
// A sluice writer of t.path with `options` and t.buffer_size (0: sluice's
// default).
sluice::writer open_writer(const target& t, sluice::writer_options options = {});
// The options of a sluice::ostream of t: t.buffer_size, and when t.sync
// durability::data_on_close, so that close() ends with the fdatasync.
sluice::writer_options ostream_options(const target& t);
void finish(sluice::writer& out, const target& t);  // close(), then its file's fdatasync if t.sync
void finish(sluice::file& out, const target& t);    // sync_data() when t.sync, close()

}  // namespace sluice::bench
