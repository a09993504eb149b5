#include "text2bin/text_input.hpp"

#include <span>

#include "common/standard_streams.hpp"

namespace text2bin {
namespace {

sluice::file open_source(const std::string& path) {
  if (path == "-") return sluice_tools::borrow_standard_input();
  return sluice::file::open(path, {.mode = sluice::open_mode::read_only});
}

}  // namespace

text_input::text_input(const std::string& path)
    : source_(open_source(path)), name_(path == "-" ? "standard input" : path) {
  if (path != "-" && !source_.is_stream()) size_ = source_.size();
}

std::size_t text_input::read(char* into, std::size_t count) {
  if (ended_ || count == 0) return 0;  // a terminal would wait for more
  auto got = source_.read_at(std::as_writable_bytes(std::span(into, count)), offset_);
  offset_ += got;
  ended_ = got < count;
  return got;
}

}  // namespace text2bin
