#include "peers/ifstream.hpp"

#include <stdexcept>
#include <string>

namespace sluice::bench {

input_ifstream::input_ifstream(const char* path, std::size_t buffer_size) {
  if (buffer_size > 0) {
    buffer_ = std::make_unique<char[]>(buffer_size);
    in_.rdbuf()->pubsetbuf(buffer_.get(), static_cast<std::streamsize>(buffer_size));
  }
  in_.open(path, std::ios::binary);
  if (!in_) throw std::runtime_error(std::string("std::ifstream cannot open '") + path + "'");
}

void input_ifstream::finish() {
  bool failed = in_.bad(), stopped = !in_.eof();
  in_.close();
  if (failed) throw std::runtime_error("a std::ifstream read failed (badbit)");
  if (stopped) throw std::runtime_error("std::ifstream stopped before the end of the file");
}

}  // namespace sluice::bench
