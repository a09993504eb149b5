#include "peers/ofstream.hpp"

#include <stdexcept>
#include <string>

#include "core/io.hpp"

namespace sluice::bench {

buffered_ofstream::buffered_ofstream(const char* path)
    : buffer_(std::make_unique_for_overwrite<char[]>(big_buffer_size)) {
  out_.rdbuf()->pubsetbuf(buffer_.get(), big_buffer_size);
  out_.open(path, std::ios::binary);
}

void finish(std::ofstream& out, const target& t) {
  out.flush();
  if (out && t.sync) sync_path(t.path);
  out.close();
  if (!out) throw std::runtime_error(std::string("std::ofstream failed writing '") + t.path + "'");
}

}  // namespace sluice::bench
