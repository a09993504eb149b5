#include "peers/stdio_file.hpp"

#include <cerrno>
#include <stdexcept>
#include <string>
#include <system_error>

#include "core/io.hpp"
#include "peers/c_rows.h"

namespace sluice::bench {

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
  sync_file_data(fileno(file_));
}

void stdio_file::finish(bool sync) {
  bool failed = std::fflush(file_) != 0 || std::ferror(file_);
  int error = errno;
  if (!failed && sync) sync_file_data(fileno(file_));
  int result = std::fclose(file_);
  file_ = nullptr;
  if (failed) throw std::system_error(error, std::generic_category(), "fwrite");
  if (result != 0) throw_errno("fclose");
}

}  // namespace sluice::bench

extern "C" int c_rows_sync_stream(FILE* file) {
  try {
    sluice::bench::sync_file_data(fileno(file));
    return 0;
  } catch (const std::system_error& e) {
    return e.code().category() == std::generic_category() ? e.code().value() : EIO;
  }
}
