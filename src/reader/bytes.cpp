// sluice::reader's byte calls off the inline path: get, peek, read,
// read_some, skip, read_record, eof.
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "os/error_messages.hpp"
#include "sluice/reader.hpp"

namespace sluice {

int reader::get_slow() {
  if (fill(1) == 0) return end;
  return static_cast<unsigned char>(*pos_++);
}

std::span<const std::byte> reader::peek_slow(std::size_t n) {
  fill(std::max<std::size_t>(n, 1));
  return {pos_, end_};
}

// Copies what is buffered into the front of `out`: the count.
std::size_t reader::take_buffered(std::span<std::byte> out) noexcept {
  std::size_t n = std::min(out.size(), static_cast<std::size_t>(end_ - pos_));
  if (n != 0) std::memcpy(out.data(), pos_, n);
  pos_ += n;
  return n;
}

// Whether a request of `size` bytes goes straight into the caller's memory.
bool reader::bypasses(std::size_t size) const noexcept {
  return size >= capacity_ && options_.caching != caching_mode::direct;
}

// Reads `out` straight from the file at the position (the buffer empty).
std::size_t reader::read_around(std::span<std::byte> out) {
  std::uint64_t at = tell();
  std::size_t got = read_file(out, at);
  restart_at(at + got);
  return got;
}

// Refills the buffer (with at most a buffer's worth of `out` in view) and
// copies from it into `out`: the count, 0 at the end of the file.
std::size_t reader::refill_into(std::span<std::byte> out) {
  fill(std::min(out.size(), capacity_ - (align_ - 1)));
  return take_buffered(out);
}

void reader::read(std::span<std::byte> out) {
  std::size_t done = take_buffered(out);
  while (done < out.size()) {
    std::span<std::byte> rest = out.subspan(done);
    std::size_t got = bypasses(rest.size()) ? read_around(rest) : refill_into(rest);
    if (got == 0) throw_end_of_file("read", done, out.size());
    done += got;
  }
}

std::size_t reader::read_some(std::span<std::byte> out) {
  if (out.empty()) return 0;
  if (pos_ != end_) return take_buffered(out);
  if (bypasses(out.size())) return read_around(out);
  fill(1);
  return take_buffered(out);
}

std::uint64_t reader::skip(std::uint64_t n) {
  auto buffered = static_cast<std::uint64_t>(end_ - pos_);
  if (n <= buffered) {
    pos_ += n;
    return n;
  }
  std::uint64_t from = tell();
  if (seekable_) {  // where the file ends, without reading up to there
    std::uint64_t size = source_.size();
    if (size < size_at_open_ && size < from + n) throw_shrank(size);
    std::uint64_t to = std::max(from + buffered, std::min(size, from + n));
    restart_at(to);
    return to - from;
  }
  std::uint64_t done = 0;
  while (done < n) {
    std::size_t here = fill(1);
    if (here == 0) break;
    auto step = static_cast<std::size_t>(std::min<std::uint64_t>(here, n - done));
    pos_ += step;
    done += step;
  }
  return done;
}

std::span<const std::byte> reader::read_record_slow(std::size_t n) {
  std::size_t got = fill(n);
  if (got == 0) return {};
  if (got < n) {
    pos_ = end_;
    throw_end_of_file("read_record", got, n);
  }
  std::span<const std::byte> record(pos_, n);
  pos_ += n;
  return record;
}

void reader::throw_consume_past(std::size_t n) const {
  throw std::out_of_range("sluice: consume " + std::to_string(n) + " bytes of '" + path() +
                          "': only " + std::to_string(end_ - pos_) + " buffered");
}

void reader::throw_end_of_file(const char* operation, std::size_t got, std::size_t wanted) const {
  throw end_of_file_error(detail::describe(operation, path(), tell()) + ": end of file after " +
                              std::to_string(got) + " of " + std::to_string(wanted) + " bytes",
                          tell(), got);
}

}  // namespace sluice
