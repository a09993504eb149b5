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
// the same call (tests/text/fmt_test.cpp compares them).
//
// Cost: most format strings are written without {fmt} formatting anything.
// Where every replacement field is "{}" (or "{0}") of an integer of up to 64
// bits, a bool, a char, a float, a double or a string (std::string,
// std::string_view, a C string), or ".<precision>f" / ".<precision>e" of a
// float or double (precision up to 200 for f, 496 for e), print cuts the
// string into its pieces at compile time and writes each straight into the
// writer's buffer: the text between fields is copied, integers and bools
// are written as writer::print writes them, floats by sluice's own code:
// the shortest digits that read back (std::to_chars) laid out as {fmt}'s
// "{}" lays them out (fixed notation for decimal exponents from -4 to 15,
// to 6 for a float since {fmt} 10; "1e+16" beyond), and fixed or scientific
// as writer::print(value, sluice::fixed(3)) writes them (exact integer
// arithmetic for f up to 9 decimals, else std::to_chars), rounding the
// exact binary value correctly, ties to even, as {fmt} does. No format
// string is parsed at run time and no text is copied twice. (A call whose
// text could be longer than the writer's whole buffer, a long string or a
// tiny buffer, takes the other way, so that the buffer never grows.)
// Any other format string ("{:>10}", "{:x}", a named argument, a type with a
// formatter of its own, fmt::runtime(text)) is formatted by {fmt} once, into
// a stack buffer of 500 bytes (a longer text moves to the heap), and print
// copies the text into the writer's buffer; a text longer than the whole
// buffer goes out through write() without that copy (the buffer does not
// grow). Its float fields with the specs above are still sluice's, the
// others {fmt}'s. Each argument is formatted once, so one that can be read
// only once (a join over an input iterator) loses nothing.
//
// Errors: the writer's (see <sluice/writer.hpp>): a write that fails throws
// and sticks, and no byte is dropped silently (unlike fmt::output_file, which
// loses bytes on a short write). A formatter that throws leaves the writer
// with nothing of that call written; so does a null C string, which {fmt}
// refuses with fmt::format_error.
//
// Example:
//   #include <sluice/fmt.hpp>
//   sluice::writer out("points.csv");
//   for (const auto& p : points) sluice::print(out, "{},{:.6g},{:.6g}\n", p.id, p.x, p.y);
//   out.close();
#pragma once

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "sluice/format.hpp"
#include "sluice/writer.hpp"

namespace sluice {
namespace detail {

// {fmt}'s "{}" writes a float or double in fixed notation when its decimal
// exponent is in [-4, fmt_fixed_below<T>): 16, and for float 7 since {fmt}
// 10 (min(16, digits10 + 1)).
// The most characters sluice writes for a float field of print's: the
// precisions it takes are those whose float_room() fits.
inline constexpr std::size_t fmt_float_room = 512;

template <class T>
inline constexpr int fmt_fixed_below = std::is_same_v<T, float>&& FMT_VERSION >= 100000 ? 7 : 16;

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
concept float_or_double = std::same_as<T, float> || std::same_as<T, double>;

// The arguments print writes itself for "{}", with the bytes {fmt} would:
// integers of up to 64 bits (not bool or the character types), bool, char,
// float, double, and strings (std::string, std::string_view, a C string).
template <class T>
concept direct_argument =
    (text_integer<T> && sizeof(T) <= 8) || float_or_double<T> || std::same_as<T, bool> ||
    std::same_as<T, char> || std::same_as<T, std::string> || std::same_as<T, std::string_view> ||
    std::same_as<T, const char*> || std::same_as<T, char*>;

// A replacement field of a compiled format: the argument and how it is
// written ("{}", or a float's ".<precision>f" / ".<precision>e"), after the
// literal text before it ("{{" and "}}" end a piece of text without a field).
struct format_piece {
  enum kind : unsigned char { text_only, plain, fixed, scientific };
  unsigned short text_begin = 0, text_size = 0;
  unsigned char argument = 0;
  kind how = text_only;
  unsigned short precision = 0;
};

// The most characters print writes for a field `piece` of a T, or -1 if it
// leaves that to {fmt}; a string's are counted as print is called (0).
template <class T>
consteval long field_room(const format_piece& piece) {
  if (piece.how != format_piece::plain) {
    if constexpr (float_or_double<T>)
      return static_cast<long>(float_room(piece.how == format_piece::fixed
                                              ? sluice::fixed(piece.precision)
                                              : sluice::scientific(piece.precision),
                                          std::same_as<T, double>));
    return -1;
  }
  if constexpr (!direct_argument<T>) return -1;
  if constexpr (float_or_double<T>) return static_cast<long>(shortest_fmt_room);
  if constexpr (std::is_convertible_v<const T&, std::string_view>) return 0;
  if constexpr (std::same_as<T, char>) return 1;
  if constexpr (std::same_as<T, bool>) return 5;
  if constexpr (text_integer<T>) return std::numeric_limits<T>::digits10 + 2;
  return -1;
}

// The characters of a string argument, 0 for any other.
template <class T>
std::size_t string_room(const T& value) noexcept {
  if constexpr (std::is_convertible_v<const T&, std::string_view>)
    return std::string_view(value).size();
  else
    return 0;
}

// A format string of print's, checked by {fmt} at compile time, and, where
// every field is one print writes itself ("{}", "{0}", "{:.3f}", "{1:.6e}"
// of the arguments above, the precisions as the float formatter below
// takes them) and there are at most max_pieces pieces, cut into pieces at
// compile time too, so that print writes it without parsing it.
template <class... Args>
class print_format {
 public:
  static constexpr std::size_t max_pieces = 24;

  template <class S>
  requires std::is_convertible_v<const S&, std::string_view>
  consteval print_format(const S& text) : checked_(text) {
    compiled_ = cut(std::string_view(text));
  }
  // A format string checked already, passed on by a function of the
  // caller's that takes one (fmt::format_string<T...>): not cut.
  print_format(fmt::format_string<Args...> checked) : checked_(checked) {}
  // fmt::runtime(text): checked by {fmt} as it formats, never cut.
  print_format(decltype(fmt::runtime(std::string_view())) text) : checked_(text) {}

  constexpr fmt::string_view text() const noexcept { return checked_; }
  constexpr bool compiled() const noexcept { return compiled_; }
  constexpr std::span<const format_piece> pieces() const noexcept {
    return {pieces_.data(), count_};
  }
  // The most characters print writes for it, given the arguments.
  template <class... Values>
  std::size_t room(const Values&... values) const noexcept {
    return room_of_strings(std::index_sequence_for<Values...>{}, values...);
  }

 private:
  using argument_types = std::tuple<std::decay_t<Args>...>;

  template <std::size_t... I, class... Values>
  std::size_t room_of_strings(std::index_sequence<I...>, const Values&... values) const noexcept {
    return (room_ + ... + (uses_[I] * string_room(values)));
  }

  consteval bool add(format_piece piece) {
    if (count_ == max_pieces) return false;
    pieces_[count_++] = piece;
    return true;
  }

  // The most characters argument `index` takes written as `piece` says
  // (a string's are counted as print is called: 0 here), or -1 if print
  // does not write it so itself.
  template <std::size_t... I>
  static consteval long room_of(std::size_t index, const format_piece& piece,
                                std::index_sequence<I...>) {
    long room = -1;
    ((index == I && (room = field_room<std::tuple_element_t<I, argument_types>>(piece))), ...);
    return room;
  }

  // The field's spec from `at` (just past the argument's number, at ':' or
  // '}'), into `piece`; the index just past its '}', or 0 if print does not
  // write it itself.
  static consteval std::size_t read_spec(std::string_view text, std::size_t at,
                                         format_piece& piece) {
    if (text[at] == ':') ++at;
    if (text[at] == '}') {
      piece.how = format_piece::plain;
      return at + 1;
    }
    if (text[at++] != '.') return 0;
    std::size_t digits = at;
    unsigned precision = 0;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9' && at - digits < 3)
      precision = precision * 10 + static_cast<unsigned>(text[at++] - '0');
    if (at == digits || at + 1 >= text.size() || text[at + 1] != '}') return 0;
    // The precisions the float formatter below writes for both types.
    if (text[at] == 'f' && precision <= 200) piece.how = format_piece::fixed;
    if (text[at] == 'e' && precision <= 496) piece.how = format_piece::scientific;
    if (piece.how == format_piece::text_only) return 0;
    piece.precision = static_cast<unsigned short>(precision);
    return at + 2;
  }

  // Cuts `text` (which {fmt} has checked) into pieces_; false if print
  // leaves it to {fmt}.
  consteval bool cut(std::string_view text) {
    if (text.size() > 0xffff) return false;
    room_ = text.size();
    std::size_t begin = 0, next_argument = 0;
    for (std::size_t i = 0; i < text.size();) {
      auto piece = format_piece{static_cast<unsigned short>(begin), 0, 0};
      if ((text[i] == '{' && text[i + 1] == '{') || text[i] == '}') {  // "{{" or "}}"
        piece.text_size = static_cast<unsigned short>(i + 1 - begin);
        if (!add(piece)) return false;
        begin = i += 2;
        continue;
      }
      if (text[i] != '{') {
        ++i;
        continue;
      }
      piece.text_size = static_cast<unsigned short>(i - begin);
      std::size_t at = i + 1, index = next_argument++;
      if (text[at] >= '0' && text[at] <= '9') {
        for (index = 0; text[at] >= '0' && text[at] <= '9'; ++at)
          index = index * 10 + static_cast<std::size_t>(text[at] - '0');
      }
      at = read_spec(text, at, piece);
      if (at == 0 || index >= sizeof...(Args)) return false;
      long room = room_of(index, piece, std::index_sequence_for<Args...>{});
      if (room < 0) return false;
      room_ += static_cast<std::size_t>(room);
      ++uses_[index];
      piece.argument = static_cast<unsigned char>(index);
      if (!add(piece)) return false;
      begin = i = at;
    }
    return begin == text.size() || add({static_cast<unsigned short>(begin),
                                        static_cast<unsigned short>(text.size() - begin), 0});
  }

  fmt::format_string<Args...> checked_;
  std::array<format_piece, max_pieces> pieces_{};
  std::size_t count_ = 0;
  bool compiled_ = false;
  std::size_t room_ = 0;  // the most characters of the text and the fields, strings aside
  std::array<unsigned char, sizeof...(Args) + 1> uses_{};  // fields per argument
};

// Writes `value` at `at` for a field of a compiled format, as {fmt} would
// (in at most field_room<T>(piece) characters, or a string's own size);
// returns the end of its text.
template <class T>
char* print_field(char* at, const format_piece& piece, const T& value) noexcept {
  if constexpr (float_or_double<T>) {
    if (piece.how == format_piece::plain)
      return at + format_shortest_fmt(at, value, fmt_fixed_below<T>);
    return at + format_floating(at, value,
                                piece.how == format_piece::fixed
                                    ? sluice::fixed(piece.precision)
                                    : sluice::scientific(piece.precision));
  } else if constexpr (std::is_convertible_v<const T&, std::string_view>) {
    std::string_view text(value);
    std::memcpy(at, text.data(), text.size());
    return at + text.size();
  } else if constexpr (std::same_as<T, char>) {
    *at = value;
    return at + 1;
  } else if constexpr (std::same_as<T, bool>) {
    std::memcpy(at, value ? "true" : "false", 5);
    return at + (value ? 4 : 5);
  } else {
    return std::to_chars(at, at + std::numeric_limits<T>::digits10 + 2, value).ptr;
  }
}

// Copies `size` bytes of a format string's text: a few moves for the short
// pieces between fields, rather than a call. (The moves never reach past
// the text; GCC's -Warray-bounds cannot always tell, on a path where it
// knows a short piece's size but not that the branch is not taken.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
#endif
inline char* copy_text(char* to, const char* from, std::size_t size) noexcept {
  if (size >= 8 && size <= 16) {
    std::memcpy(to, from, 8);
    std::memcpy(to + size - 8, from + size - 8, 8);
  } else if (size >= 4 && size < 8) {
    std::memcpy(to, from, 4);
    std::memcpy(to + size - 4, from + size - 4, 4);
  } else if (size != 0) {
    std::memcpy(to, from, size);
  }
  return to + size;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

// Writes a compiled format's pieces and fields into `room` (as much as
// format.room(args...) says); returns the length.
template <class Format, std::size_t... I, class... Args>
std::size_t print_pieces(char* room, const Format& format, std::index_sequence<I...>,
                         const Args&... args) noexcept {
  const char* text = format.text().data();
  char* at = room;
  for (const format_piece& piece : format.pieces()) {
    at = copy_text(at, text + piece.text_begin, piece.text_size);
    if (piece.how != format_piece::text_only)
      ((piece.argument == I ? void(at = print_field(at, piece, args)) : void()), ...);
  }
  return static_cast<std::size_t>(at - room);
}

// Whether no argument is a null C string, which {fmt} refuses (throws).
template <class... Args>
bool no_null_strings(const Args&... args) {
  [[maybe_unused]] auto non_null = [](const auto& arg) {
    if constexpr (std::is_pointer_v<std::remove_cvref_t<decltype(arg)>>)
      return arg != nullptr;
    else
      return true;
  };
  return (non_null(args) && ...);
}

}  // namespace detail

// Writes fmt::format(format, args...) to `out`. Cost: a format string cut at
// compile time (see "Cost" above) is written straight into the writer's
// buffer, given room for its longest text (when that fits in the buffer);
// any other, one formatting pass by {fmt} into a stack buffer and one copy
// of the text into the writer's buffer.
template <class... Args>
void print(writer& out, detail::print_format<std::type_identity_t<Args>...> format,
           Args&&... args) {
  if constexpr ((detail::direct_argument<std::decay_t<Args>> && ...)) {
    if (format.compiled() && detail::no_null_strings(args...)) {
      std::size_t room = format.room(args...);
      if (room <= out.buffer_size()) {
        auto text = out.reserve(room);
        return out.commit(
            detail::print_pieces(text.data(), format, std::index_sequence_for<Args...>{}, args...));
      }
    }
  }
  detail::print_args(out, format.text(), detail::fmt_arg(args)...);
}

}  // namespace sluice

// Formats a float or double that sluice::print passes on to {fmt}: the
// specs ".<precision>f" and ".<precision>e" alone with sluice::detail::
// format_floating, an empty spec ("{}") with format_shortest_fmt, any other
// spec with {fmt}'s own formatter (see "Cost" above).
template <class T>
struct fmt::formatter<sluice::detail::fmt_floating<T>> {
  // Text of at most float_room() characters is made here.
  static constexpr std::size_t room = sluice::detail::fmt_float_room;

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
    if (how == plain) {
      char text[sluice::detail::shortest_fmt_room];
      auto size =
          sluice::detail::format_shortest_fmt(text, arg.value, sluice::detail::fmt_fixed_below<T>);
      return fmt::formatter<fmt::string_view>().format(fmt::string_view(text, size), ctx);
    }
    if (how == by_fmt) return fmt_formatter.format(arg.value, ctx);
    char text[room];
    auto size = sluice::detail::format_floating(text, arg.value, sluice_format);
    return fmt::formatter<fmt::string_view>().format(fmt::string_view(text, size), ctx);
  }
};
