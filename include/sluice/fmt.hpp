// sluice/fmt.hpp - sluice::print, {fmt} formatting straight into a writer.
//
// Needs {fmt} (9 or later): this header is not part of <sluice/sluice.hpp>,
// and the sluice library does not depend on {fmt}. A program that includes
// it links {fmt} itself, e.g. in CMake:
//   find_package(fmt CONFIG REQUIRED)
//   target_link_libraries(app PRIVATE sluice::sluice fmt::fmt)
//
// sluice::print(out, "{} {:.3f}\n", name, value) formats like fmt::print:
// the format string is checked at compile time (a mistake is a compile
// error), and the bytes are exactly those fmt::output_file would write for
// the same call. The text goes straight into the writer's buffer: {fmt}
// formats into the space reserve() offers and print commits what it wrote,
// with no intermediate string. When the text is longer than that space, the
// buffer is flushed and the call is formatted again into the free buffer;
// text longer than the whole buffer streams through put(), piece by piece,
// without growing it.
//
// Errors: the writer's (see <sluice/writer.hpp>): a write that fails throws
// and sticks, and no byte is dropped silently (unlike fmt::output_file, which
// loses bytes on a short write). A formatter that throws leaves the writer
// with nothing of that call committed, as long as the text fitted in the
// free buffer.
//
// Example:
//   #include <sluice/fmt.hpp>
//   sluice::writer out("points.csv");
//   for (const auto& p : points) sluice::print(out, "{},{:.6g},{:.6g}\n", p.id, p.x, p.y);
//   out.close();
#pragma once

#include <fmt/core.h>

#include <cstddef>
#include <iterator>
#include <utility>

#include "sluice/writer.hpp"

namespace sluice {
namespace detail {

// An output iterator that put()s each character into a writer.
class writer_put_iterator {
 public:
  using iterator_category = std::output_iterator_tag;
  using value_type = void;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = void;

  explicit writer_put_iterator(writer& out) noexcept : out_(&out) {}
  writer_put_iterator& operator=(char c) {
    out_->put(c);
    return *this;
  }
  writer_put_iterator& operator*() noexcept { return *this; }
  writer_put_iterator& operator++() noexcept { return *this; }
  writer_put_iterator operator++(int) noexcept { return *this; }

 private:
  writer* out_;
};

// Formats into the writer's free space; on overflow, into a flushed buffer;
// beyond the buffer's size, through put().
inline void vprint(writer& out, fmt::string_view format, fmt::format_args args) {
  auto room = out.reserve(1);
  auto result = fmt::vformat_to_n(room.data(), room.size(), format, args);
  if (result.size <= room.size()) return out.commit(result.size);
  if (result.size <= out.buffer_size()) {
    room = out.reserve(result.size);
    out.commit(fmt::vformat_to_n(room.data(), room.size(), format, args).size);
    return;
  }
  fmt::vformat_to(writer_put_iterator(out), format, args);
}

}  // namespace detail

// Writes fmt::format(format, args...) to `out`, straight into its buffer.
// Cost: one formatting pass when the text fits in the buffer's free space
// (the common case), two when it needs a flush first.
template <class... Args>
void print(writer& out, fmt::format_string<Args...> format, Args&&... args) {
  detail::vprint(out, format, fmt::make_format_args(args...));
}

}  // namespace sluice
