// sluice-bench: opening and finishing a file the way the limits (raw system
// calls) and sluice's methods do, with the error checks a careful program
// makes, so that a failed write fails its method instead of posting a
// figure. "Finish" is what ends every timed run: flush, fdatasync when the
// run includes it, close. The peers' files (stdio, std::ofstream, {fmt})
// are in peers/.
#pragma once

#include <fcntl.h>
#include <sys/uio.h>

#include <cstddef>
#include <sluice/file.hpp>
#include <sluice/writer.hpp>
#include <string>

#include "core/bench_case.hpp"

namespace sluice::bench {

// The buffer of the tuned peers and of the hand-written limit.
inline constexpr std::size_t big_buffer_size = 256 * 1024;

// Throws std::system_error with errno and `what`.
[[noreturn]] void throw_errno(const std::string& what);

// fdatasync of the file at `path` through a descriptor of its own: for the
// streams that do not show theirs. Throws std::system_error.
void sync_path(const char* path);

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

// A sluice writer of t.path with `options` and t.buffer_size (0: sluice's
// default).
sluice::writer open_writer(const target& t, sluice::writer_options options = {});
// The options of a sluice::ostream of t: t.buffer_size, and when t.sync
// durability_mode::data_on_close, so that close() ends with the fdatasync.
sluice::writer_options ostream_options(const target& t);
void finish(sluice::writer& out, const target& t);  // close(), then its file's fdatasync if t.sync
void finish(sluice::file& out, const target& t);    // sync_data() when t.sync, close()

}  // namespace sluice::bench
