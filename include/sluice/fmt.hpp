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
// the same call. {fmt} formats each call once, into a stack buffer of 500
// bytes (a longer text moves to the heap), and print copies the text into
// the writer's buffer; a text longer than the whole buffer goes out through
// write() without that copy (the buffer does not grow). Each argument is
// formatted once, so one that can be read only once (a join over an input
// iterator) loses nothing.
//
// Floating point: a float or double whose spec is ".<precision>f" or
// ".<precision>e" and nothing else ("{:.3f}", "{:.6e}"; no fill, align,
// sign, '#', '0', width or 'L'), with a precision up to 200 for f and 496
// for e (a float: 470 and 496), is written by sluice's own float code, that
// of writer::print(value, sluice::fixed(3)) (exact integer arithmetic for f
// up to 9 decimals, else std::to_chars), instead of {fmt}'s, which costs
// several times as much for these specs. The bytes are the same, since both
// write the exact binary value rounded correctly, ties to even
// (tests/text/fmt_test.cpp compares them). Every other spec goes to {fmt}'s own
// formatter unchanged. (To tell the specs apart, floats reach {fmt} as a
// sluice type, which costs it a little more when it formats them itself;
// print does that only for a format string with a '.' in it.)
//
// Errors: the writer's (see <sluice/writer.hpp>): a write that fails throws
// and sticks, and no byte is dropped silently (unlike fmt::output_file, which
// loses bytes on a short write). A formatter that throws leaves the writer
// with nothing of that call written.
//
// Example:
//   #include <sluice/fmt.hpp>
//   sluice::writer out("points.csv");
//   for (const auto& p : points) sluice::print(out, "{},{:.6g},{:.6g}\n", p.id, p.x, p.y);
//   out.close();
#pragma once

#include <fmt/compile.h>
#include <fmt/format.h>

#include <cstddef>
#include <iterator>
#include <string_view>
#include <type_traits>
#include <utility>

#include "sluice/format.hpp"
#include "sluice/writer.hpp"

namespace sluice {
namespace detail {

// A float or double on its way to {fmt}, so that its formatter below, not
// {fmt}'s own, sees the format spec.
template <class T>
struct fmt_floating {
  T value;
};

// What print hands {fmt} for an argument: a float or a double wrapped,
// anything else as it is.
template <class T>
T& fmt_arg(T& arg) {
  return arg;
}
inline fmt_floating<double> fmt_arg(double arg) { return {arg}; }
inline fmt_floating<float> fmt_arg(float arg) { return {arg}; }

// Formats once, into a stack buffer (500 bytes; a longer text grows it on
// the heap), then copies the text into the writer's buffer (a text longer
// than the buffer is sent on by write() without that copy). Never twice:
// an argument read once (a join over an input iterator) would lose its
// text, and one whose text changes between passes could outgrow the space
// the first pass measured.
inline void vprint(writer& out, fmt::string_view format, fmt::format_args args) {
  fmt::memory_buffer text;
  fmt::vformat_to(fmt::appender(text), format, args);
  out.write(std::string_view(text.data(), text.size()));
}

// The arguments, as they are or as fmt_arg made them, named so that {fmt}
// can refer to them.
template <class... Args>
void print_args(writer& out, fmt::string_view format, Args&&... args) {
  vprint(out, format, fmt::make_format_args(args...));
}

template <class T>
constexpr bool is_float_or_double =
    std::is_same_v<std::remove_cvref_t<T>, float> || std::is_same_v<std::remove_cvref_t<T>, double>;

}  // namespace detail

// Writes fmt::format(format, args...) to `out`. Cost: one formatting pass
// into a stack buffer and one copy of the text into the writer's buffer.
template <class... Args>
void print(writer& out, fmt::format_string<Args...> format, Args&&... args) {
  fmt::string_view text = format;
  // Floats wrapped only for a format with a '.', as in "{:.3f}": a wrapped
  // float that {fmt} formats after all ("{}") costs it a little more.
  if constexpr ((detail::is_float_or_double<Args> || ...))
    if (std::string_view(text.data(), text.size()).find('.') != std::string_view::npos)
      return detail::print_args(out, text, detail::fmt_arg(args)...);
  detail::print_args(out, text, args...);
}

}  // namespace sluice

// Formats a float or double that sluice::print passes on: the specs
// ".<precision>f" and ".<precision>e" alone with sluice::detail::
// format_floating, an empty spec ("{}") as {fmt} formats a plain float, any
// other spec with {fmt}'s own formatter (see "Floating point" above).
template <class T>
struct fmt::formatter<sluice::detail::fmt_floating<T>> {
  // Text of at most float_room() characters is made here.
  static constexpr std::size_t room = 512;

  enum { by_fmt, plain, by_sluice } how = by_fmt;
  sluice::float_format sluice_format{};
  fmt::formatter<T> fmt_formatter;

  auto parse(fmt::format_parse_context& ctx) {
    auto it = ctx.begin(), end = ctx.end();
    if (it == end || *it == '}') {
      how = plain;
      return it;
    }
    if (*it != '.') return fmt_formatter.parse(ctx);
    auto digits = ++it;
    int precision = 0;
    for (; it != end && *it >= '0' && *it <= '9' && it - digits < 4; ++it)
      precision = precision * 10 + (*it - '0');
    if (it == digits || it == end || (*it != 'f' && *it != 'e') || it + 1 == end || it[1] != '}')
      return fmt_formatter.parse(ctx);
    sluice_format = *it == 'f' ? sluice::fixed(precision) : sluice::scientific(precision);
    if (sluice::detail::float_room(sluice_format, std::is_same_v<T, double>) > room)
      return fmt_formatter.parse(ctx);
    how = by_sluice;
    return it + 1;
  }

  template <class FormatContext>
  auto format(const sluice::detail::fmt_floating<T>& arg, FormatContext& ctx) const {
    if (how == plain) return fmt::format_to(ctx.out(), FMT_COMPILE("{}"), arg.value);
    if (how == by_fmt) return fmt_formatter.format(arg.value, ctx);
    char text[room];
    auto size = sluice::detail::format_floating(text, arg.value, sluice_format);
    return fmt::formatter<fmt::string_view>().format(fmt::string_view(text, size), ctx);
  }
};
