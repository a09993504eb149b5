// sluice::ostream: the streambuf's put area lives in the writer's buffer.
#include "sluice/ostream.hpp"

#include <limits>
#include <utility>

namespace sluice {
namespace detail {

void writer_streambuf::settle() noexcept {
  target_->commit(static_cast<std::size_t>(pptr() - pbase()));
  setp(nullptr, nullptr);
}

// Settles first, so that a reserve() that throws leaves no stale put area.
void writer_streambuf::open_area(std::size_t at_least) {
  settle();
  auto room = target_->reserve(at_least);
  setp(room.data(), room.data() + room.size());
}

writer_streambuf::int_type writer_streambuf::overflow(int_type c) {
  open_area(1);
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  *pptr() = traits_type::to_char_type(c);
  pbump(1);
  return c;
}

// What fits is copied into the put area; what does not is the writer's
// write(), which may send it without copying.
std::streamsize writer_streambuf::xsputn(const char* text, std::streamsize size) {
  auto length = static_cast<std::size_t>(size);
  // pbump() takes an int: a longer text goes to write() even if it fits.
  if (length <= static_cast<std::size_t>(epptr() - pptr()) &&
      length <= static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    traits_type::copy(pptr(), text, length);
    pbump(static_cast<int>(size));
    return size;
  }
  settle();
  target_->write(std::string_view(text, length));
  open_area(1);
  return size;
}

// -1, never an exception, on failure: the stream may call it from a
// destructor (a sentry's, under std::unitbuf). The error sticks in the
// writer, so close() throws it.
int writer_streambuf::sync() {
  try {
    settle();
    target_->flush();
    open_area(1);
    return 0;
  } catch (...) {
    return -1;
  }
}

// Only the position is answered (tellp); the stream cannot seek.
writer_streambuf::pos_type writer_streambuf::seekoff(off_type offset, std::ios_base::seekdir dir,
                                                     std::ios_base::openmode which) {
  if (offset != 0 || dir != std::ios_base::cur || !(which & std::ios_base::out))
    return pos_type(off_type(-1));
  return pos_type(static_cast<off_type>(target_->tell()) + (pptr() - pbase()));
}

}  // namespace detail

ostream::ostream(const std::filesystem::path& path, writer_options options)
    : std::ostream(nullptr), writer_(path, options) {
  init(&buffer_);
}

ostream::ostream(file&& target, writer_options options)
    : std::ostream(nullptr), writer_(std::move(target), options) {
  init(&buffer_);
}

// An error the stream turned into badbit reached the caller only as that
// bit, unless exceptions() rethrew it: the writer's destructor reports it.
ostream::~ostream() {
  buffer_.settle();
  if (bad() && !(exceptions() & std::ios_base::badbit)) writer_.error_thrown_ = false;
}

// Sets badbit without letting exceptions() replace the writer's error.
void ostream::mark_bad() noexcept {
  try {
    setstate(std::ios_base::badbit);
  } catch (const std::ios_base::failure&) {
  }
}

void ostream::close() {
  buffer_.settle();
  try {
    writer_.close();
  } catch (...) {
    mark_bad();
    throw;
  }
}

std::uint64_t ostream::tell() const noexcept {
  return writer_.tell() + static_cast<std::uint64_t>(buffer_.pending());
}

}  // namespace sluice
