// sluice/format.hpp - how writer::print lays out a number: base, precision,
// width and fill.
//
// writer::print(value) writes integers in decimal and floating point in the
// shortest form that reads back to the same bits. A second argument asks for
// something else:
//
//   w.print(255, sluice::hex);                          // "ff"
//   w.print(255, sluice::hex_upper.pad(6, '0'));        // "0000FF"
//   w.print(-5, sluice::dec.pad(4, '0'));               // "-005"
//   w.print(5, sluice::bin);                            // "101"
//   w.print(35, sluice::base(36));                      // "z"
//   w.print(3.14159, sluice::fixed(2));                 // "3.14"
//   w.print(1234.56, sluice::scientific(3));            // "1.235e+03"
//   w.print(0.0001, sluice::general(6));                // "0.0001", like printf's %g
//   w.print(2.5, sluice::shortest.pad(6, '*', sluice::align::left));  // "2.5***"
//   w.print(true);  w.print('x');                       // "true", "x"
//   w.print("name", sluice::pad(8, ' ', sluice::align::left));  // "name    "
//
// Cost: the text is made in the writer's buffer itself (std::to_chars into
// reserve()d space, then commit; fixed with a precision up to 9, the common
// case, by exact integer arithmetic instead, several times faster), never in
// a temporary string; padding moves it there in place. A format is a small
// value, cheap to copy and constexpr. Nothing here allocates or throws,
// except writer calls that flush a full buffer (their errors are the
// writer's, see <sluice/writer.hpp>), and base() or print() given a base
// outside 2..36 (std::invalid_argument). print reserves room for the longest
// text the format can give for that value (in fixed notation, for its own
// integer digits), so a writer's buffer is enlarged only when that is more
// than the whole buffer.
//
// Text forms:
// - integers in a base other than 10 are lowercase (hex_upper: uppercase),
//   without prefix; a negative value is "-" and its magnitude ("-ff").
// - infinities and NaNs print as "inf", "-inf", "nan", "-nan" in every style,
//   padded with spaces where the fill is '0' (as printf and {fmt} do).
// - fixed/scientific/general take a precision like printf's %f/%e/%g and
//   round the exact binary value correctly.
// - padding fills up to `width` characters (a longer text is never cut). With
//   fill '0' and align::right (the default) the zeros go after a leading
//   minus sign, as printf's "%05d" does.
#pragma once

#include <bit>
#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace sluice {

// Where the text sits inside a padded field.
enum class align : unsigned char { right, left, center };

// Fill up to `width` characters with `fill`; the default pads nothing.
struct padding {
  std::size_t width = 0;
  char fill = ' ';
  sluice::align align = sluice::align::right;
};

// A padding for writer::print(text, padding): print("id", sluice::pad(6))
// writes "    id", print("id", sluice::pad(6, '.', sluice::align::left)) "id....".
constexpr padding pad(std::size_t width, char fill = ' ',
                      sluice::align where = sluice::align::right) {
  return {width, fill, where};
}

// How writer::print(integer, format) writes an integer.
struct int_format {
  int base = 10;           // 2..36
  bool uppercase = false;  // digits above 9 as 'A'..'Z'
  padding padded{};        // default: none

  // The same format padded to `width` characters.
  constexpr int_format pad(std::size_t width, char fill = ' ',
                           sluice::align where = sluice::align::right) const {
    return {base, uppercase, {width, fill, where}};
  }
};

inline constexpr int_format dec{10};
inline constexpr int_format hex{16};
inline constexpr int_format hex_upper{16, true};
inline constexpr int_format oct{8};
inline constexpr int_format bin{2};

// Any base from 2 to 36 (lowercase digits); throws std::invalid_argument
// otherwise.
constexpr int_format base(int digits_base) {
  if (digits_base < 2 || digits_base > 36)
    throw std::invalid_argument("sluice::base: not in 2..36");
  return {digits_base};
}

// The styles of writer::print(floating, format).
enum class float_style : unsigned char {
  shortest,    // the shortest text that reads back to the same bits
  fixed,       // printf's %.<precision>f
  scientific,  // printf's %.<precision>e
  general,     // printf's %.<precision>g
};

// How writer::print(floating, format) writes a float or a double.
struct float_format {
  float_style style = float_style::shortest;
  int precision = 0;  // digits after the point (general: significant digits); >= 0
  padding padded{};

  constexpr float_format pad(std::size_t width, char fill = ' ',
                             sluice::align where = sluice::align::right) const {
    return {style, precision, {width, fill, where}};
  }
};

inline constexpr float_format shortest{};
// A negative precision counts as 0 (also in a float_format made by hand).
// The text grows with the precision: a text longer than the writer's buffer
// makes the writer enlarge it.
constexpr float_format fixed(int precision) {
  return {float_style::fixed, precision < 0 ? 0 : precision};
}
constexpr float_format scientific(int precision) {
  return {float_style::scientific, precision < 0 ? 0 : precision};
}
constexpr float_format general(int precision) {
  return {float_style::general, precision < 0 ? 0 : precision};
}

namespace detail {

// An integer type that print writes and parse reads as digits: every
// integral type but bool and the character types (char, wchar_t, char8_t,
// char16_t, char32_t), whose print writes a word or the character itself.
// signed char and unsigned char (std::int8_t, std::uint8_t) are numbers.
template <class T>
concept text_integer = std::integral<T> && !std::same_as<T, bool> && !std::same_as<T, char> &&
                       !std::same_as<T, wchar_t> && !std::same_as<T, char8_t> &&
                       !std::same_as<T, char16_t> && !std::same_as<T, char32_t>;

// How many of a field's `gap` fill characters go before its text.
std::size_t lead_of(std::size_t gap, align where) noexcept;

// Moves the `size` characters at `text` to fit a field of pad.width and
// fills around them; returns the field's length. `text` must have room for
// max(size, pad.width) characters.
std::size_t apply_padding(char* text, std::size_t size, const padding& pad) noexcept;

// The most characters print(value of T, format) writes before padding: a
// sign and the digits, at least floor(log2(base)) bits each. format.base
// must be 2..36.
template <class T>
constexpr std::size_t int_room(const int_format& format) {
  auto bits_per_digit = static_cast<std::size_t>(std::bit_width(unsigned(format.base)) - 1);
  return static_cast<std::size_t>(std::numeric_limits<T>::digits) / bits_per_digit + 2;
}

// Throws std::invalid_argument unless format.base is 2..36: std::to_chars
// has no meaning for other bases.
constexpr void check_base(const int_format& format) {
  if (format.base < 2 || format.base > 36)
    throw std::invalid_argument("sluice: print: an int_format's base must be 2..36");
}

// Writes `value` as `format` says at `text` (room for int_room<T>() and for
// the padding's width); returns the length.
template <class T>
std::size_t format_integer(char* text, T value, const int_format& format) noexcept {
  char* end = std::to_chars(text, text + int_room<T>(format), value, format.base).ptr;
  if (format.uppercase)
    for (char* c = text; c != end; ++c)
      if (*c >= 'a' && *c <= 'z') *c = static_cast<char>(*c - 'a' + 'A');
  return apply_padding(text, static_cast<std::size_t>(end - text), format.padded);
}

// The most characters print(double or float, format) writes before padding.
constexpr std::size_t float_room(const float_format& format, bool is_double) noexcept {
  auto precision = static_cast<std::size_t>(format.precision < 0 ? 0 : format.precision);
  switch (format.style) {
    case float_style::fixed: return (is_double ? 312 : 42) + precision;
    case float_style::scientific:
    case float_style::general: return 16 + precision;
    case float_style::shortest:
    default: return 32;
  }
}
// Writes `value` as `format` says at `text` (room for float_room() and the
// padding's width); returns the length.
std::size_t format_floating(char* text, double value, const float_format& format) noexcept;
std::size_t format_floating(char* text, float value, const float_format& format) noexcept;

// The most characters format_shortest_fmt() writes.
inline constexpr std::size_t shortest_fmt_room = 32;
// Writes `value` as {fmt}'s "{}" lays it out (for <sluice/fmt.hpp>): the
// shortest digits that read back to the same bits, in fixed notation when
// their decimal exponent is in [-4, fixed_below), 7 or 16 ("1000000",
// "0.0001"), else in exponent form ("1e+16", "1.5e-05"); "inf", "-inf",
// "nan", "-nan". Returns the length. One std::to_chars, its notation chosen
// by two comparisons of the value.
std::size_t format_shortest_fmt(char* text, double value, int fixed_below) noexcept;
std::size_t format_shortest_fmt(char* text, float value, int fixed_below) noexcept;

}  // namespace detail
}  // namespace sluice
