// sluice-bench: the stdio peer's input, fopen'ed for reading and finished
// with the error checks a careful program makes (a read error fails the
// method instead of posting a figure). The reading scenarios read through
// get() with their own calls: fread, getline, fgets, fscanf.
#pragma once

#include <cstdio>

namespace sluice::bench {

// fopen("rb"), with stdio's own buffer.
class stdio_input {
 public:
  explicit stdio_input(const char* path);  // throws std::system_error
  stdio_input(const stdio_input&) = delete;
  stdio_input& operator=(const stdio_input&) = delete;
  ~stdio_input();  // fcloses the stream if finish() was not reached

  std::FILE* get() const noexcept { return file_; }
  // fclose. Throws std::runtime_error if a read failed (ferror).
  void finish();

 private:
  std::FILE* file_;
};

}  // namespace sluice::bench
