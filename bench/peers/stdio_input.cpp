#include "peers/stdio_input.hpp"

#include <cerrno>
#include <stdexcept>
#include <string>
#include <system_error>

namespace sluice::bench {

stdio_input::stdio_input(const char* path) : file_(std::fopen(path, "rb")) {
  if (!file_)
    throw std::system_error(errno, std::generic_category(), std::string("fopen '") + path + "'");
}

stdio_input::~stdio_input() {
  if (file_) std::fclose(file_);
}

void stdio_input::finish() {
  bool failed = std::ferror(file_) != 0;
  std::fclose(file_);
  file_ = nullptr;
  if (failed) throw std::runtime_error("a stdio read failed (ferror)");
}

}  // namespace sluice::bench
