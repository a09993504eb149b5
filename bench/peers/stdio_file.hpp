// sluice-bench: the stdio peer's file, fopen'ed and finished with the error
// checks a careful program makes (a failed fwrite fails the method instead
// of posting a figure). The scenarios write through get() with their own
// calls: fwrite, fwrite_unlocked, putc_unlocked, fprintf.
#pragma once

#include <cstddef>
#include <cstdio>
#include <memory>

namespace sluice::bench {

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

}  // namespace sluice::bench
