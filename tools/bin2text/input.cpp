#include "bin2text/input.hpp"

#include <span>
#include <stdexcept>
#include <system_error>

#include "common/file_kind.hpp"
#include "common/standard_streams.hpp"

namespace bin2text {
namespace {

// The file at `path`, or standard input for "-".
sluice::file open_source(const std::string& path) {
  if (path == "-") return sluice_tools::borrow_standard_input();
  return sluice::file::open(path, {.mode = sluice::open_mode::read_only});
}

// What to say of an input that `is` (or "ended after") `size` bytes, its
// last record truncated.
std::string truncated(const std::string& name, const char* is, std::uint64_t size,
                      std::size_t record) {
  return "'" + name + "' " + is + " " + std::to_string(size) + " bytes, not a whole number of " +
         std::to_string(record) + "-byte records: the record at offset " +
         std::to_string(size - size % record) + " is truncated (" + std::to_string(size % record) +
         " bytes)";
}

}  // namespace

input::input(const std::string& path, std::size_t record_size)
    : source_(open_source(path)),
      name_(path == "-" ? "standard input" : path),
      record_(record_size) {
  sluice_tools::file_kind kind = sluice_tools::kind_of(source_, name_);
  if (kind.is == sluice_tools::file_kind::type::directory)
    throw std::runtime_error("'" + name_ + "' is a directory");
  // Standard input is read from where its offset is, even when a file.
  streamed_ = path == "-" || kind.is != sluice_tools::file_kind::type::regular;
  if (streamed_) return;
  size_ = kind.size;
  if (size_ % record_ != 0) throw std::runtime_error(truncated(name_, "is", size_, record_));
}

void input::read_records(unsigned char* into, std::uint64_t first, std::size_t count) {
  std::size_t bytes = count * record_;
  std::uint64_t offset = first * record_;
  auto got = source_.read_at(std::as_writable_bytes(std::span(into, bytes)), offset);
  if (got != bytes)
    throw std::runtime_error("'" + name_ + "' shrank while being read, at offset " +
                             std::to_string(offset + got));
}

std::size_t input::read_next(unsigned char* into, std::size_t count) {
  // The last call found the end inside a record, after whole ones.
  if (size_ % record_ != 0)
    throw std::runtime_error(truncated(name_, "ended after", size_, record_));
  if (ended_) return 0;  // a terminal would wait for more
  std::size_t bytes = count * record_;
  // `size_` only counts: a stream reads where it is.
  auto got = source_.read_at(std::as_writable_bytes(std::span(into, bytes)), size_);
  size_ += got;
  ended_ = got < bytes;
  if (got != 0 && got < record_)
    throw std::runtime_error(truncated(name_, "ended after", size_, record_));
  return got / record_;
}

}  // namespace bin2text
