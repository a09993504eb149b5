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
// text longer than the whole buffer is formatted into a memory buffer and
// handed to write() (the buffer does not grow).
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

#include <fmt/format.h>

#include <cstddef>
#include <iterator>
#include <string_view>
#include <utility>

#include "sluice/writer.hpp"

namespace sluice {
namespace detail {

// Formats into the writer's free space; on overflow, once more into the
// flushed buffer; text longer than the whole buffer is formatted into a
// memory buffer and handed to write(), which sends a large piece on
// without copying it again.
inline void vprint(writer& out, fmt::string_view format, fmt::format_args args) {
  auto room = out.reserve(1);
  auto result = fmt::vformat_to_n(room.data(), room.size(), format, args);
  if (result.size <= room.size()) return out.commit(result.size);
  if (result.size <= out.buffer_size()) {
    room = out.reserve(result.size);
    out.commit(fmt::vformat_to_n(room.data(), room.size(), format, args).size);
    return;
  }
  fmt::memory_buffer text;
  fmt::vformat_to(std::back_inserter(text), format, args);
  out.write(std::string_view(text.data(), text.size()));
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
