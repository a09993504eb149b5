// writer::print with a format (see <sluice/format.hpp>): std::to_chars (or
// fixed_exact) into reserve()d space, then padding in place.
#include "sluice/format.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>

#include "sluice/writer.hpp"

namespace sluice {
namespace detail {

// Where the text goes inside the field: how many fill characters before it.
std::size_t lead_of(std::size_t gap, align where) noexcept {
  switch (where) {
    case align::left: return 0;
    case align::center: return gap / 2;
    case align::right: break;
  }
  return gap;
}

namespace {

__extension__ typedef unsigned __int128 uint128;

// "00" to "99", for writing two digits at a time.
constexpr char digit_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// Fixed notation with a precision of at most 9, the common case, exactly and
// with far less work than std::to_chars: value = m * 2^e, so value *
// 10^precision rounded to an integer (ties to even) is integer arithmetic in
// 128 bits. Writes nothing and returns nullptr for what it leaves to
// std::to_chars: a precision outside 0..9, infinities, NaNs, values of
// 2^64 / 10^precision and more, and values below about 2^-67 (subnormals
// too).
char* fixed_exact(char* text, double value, int precision) noexcept {
  static constexpr std::uint64_t powers_of_10[] = {
      1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000};
  if (precision < 0 || precision > 9) return nullptr;
  auto bits = std::bit_cast<std::uint64_t>(value);
  int biased = static_cast<int>(bits >> 52 & 0x7ff);
  std::uint64_t m = bits & ((std::uint64_t{1} << 52) - 1);
  if (biased == 0x7ff) return nullptr;
  if (biased != 0) m |= std::uint64_t{1} << 52;
  int e = (biased == 0 ? 1 : biased) - 1075;
  if (e > 11 || e < -120) return nullptr;
  uint128 scaled = uint128{m} * powers_of_10[precision];
  if (e >= 0) {
    scaled <<= e;
  } else {
    uint128 rest = scaled & ((uint128{1} << -e) - 1), half = uint128{1} << (-e - 1);
    scaled >>= -e;
    if (rest > half || (rest == half && (scaled & 1) != 0)) ++scaled;
  }
  if (scaled > std::numeric_limits<std::uint64_t>::max()) return nullptr;
  // The integer part, then the point and exactly `precision` digits, each
  // written in place (no intermediate digit string to copy).
  auto whole = static_cast<std::uint64_t>(scaled) / powers_of_10[precision];
  auto fraction = static_cast<std::uint64_t>(scaled) % powers_of_10[precision];
  if (bits >> 63) *text++ = '-';
  text = std::to_chars(text, text + 20, whole).ptr;
  if (precision == 0) return text;
  *text++ = '.';
  int i = precision;  // the fraction's digits, two at a time from the right
  for (; i > 1; i -= 2, fraction /= 100)
    std::memcpy(text + i - 2, digit_pairs + 2 * (fraction % 100), 2);
  if (i == 1) text[0] = static_cast<char>('0' + fraction);
  return text + precision;
}

// A float_format's precision, a negative one (which only a hand-made format
// can hold) counting as 0, as the factories make it.
int precision_of(const float_format& format) noexcept { return std::max(format.precision, 0); }

// The most characters of print(value, format) before padding: float_room(),
// except that in fixed notation only as many integer digits as `value` can
// have once rounded (those of 2^e, where |value| < 2^e, with one to spare),
// so that a small buffer is not enlarged to hold 309 digits a value lacks.
template <class T>
std::size_t float_room_of(T value, const float_format& format) noexcept {
  // |value| < 2^exponent (frexp's exponent, from the bits: no call); 1025
  // for an infinity or a NaN, which fixed writes in 4 characters.
  auto bits = std::bit_cast<std::uint64_t>(static_cast<double>(value));
  int exponent = static_cast<int>(bits >> 52 & 0x7ff) - 1022;
  if (format.style != float_style::fixed || exponent == 1025)
    return float_room(format, sizeof(T) == sizeof(double));
  std::size_t digits = exponent <= 0 ? 1 : static_cast<std::size_t>(exponent) * 1233 / 4096 + 2;
  return 2 + digits + static_cast<std::size_t>(precision_of(format));  // sign and point
}

// std::to_chars in `style` (fixed too: where fixed_exact declines) within
// the room float_room_of() gives.
template <class T>
char* to_chars_as(char* text, T value, float_style style, int precision) noexcept {
  float_format format{style, precision};
  char* last = text + float_room_of(value, format);
  std::to_chars_result result;
  switch (style) {
    case float_style::fixed:
      result = std::to_chars(text, last, value, std::chars_format::fixed, precision);
      break;
    case float_style::scientific:
      result = std::to_chars(text, last, value, std::chars_format::scientific, precision);
      break;
    case float_style::general:
      result = std::to_chars(text, last, value, std::chars_format::general, precision);
      break;
    case float_style::shortest:
    default: result = std::to_chars(text, last, value); break;
  }
  return result.ptr;
}

template <class T>
std::size_t format_floating_as(char* text, T value, const float_format& format) noexcept {
  int precision = precision_of(format);
  char* end = format.style == float_style::fixed ? fixed_exact(text, value, precision) : nullptr;
  if (!end) end = to_chars_as(text, value, format.style, precision);
  // Zeros would make "00000nan" (read back as 0): printf and {fmt} pad the
  // non-finite values with spaces.
  padding padded = format.padded;
  if (padded.fill == '0' && !std::isfinite(value)) padded.fill = ' ';
  return apply_padding(text, static_cast<std::size_t>(end - text), padded);
}

// 10^exponent as T reads "1e<exponent>" (the nearest T), for the three
// exponents format_shortest_fmt needs: -4, and 7 or 16 for fixed_below.
template <class T>
T power_of_10(int exponent) noexcept {
  if constexpr (std::is_same_v<T, float>)
    return exponent == -4 ? 1e-4f : exponent == 7 ? 1e7f : 1e16f;
  return exponent == -4 ? 1e-4 : exponent == 7 ? 1e7 : 1e16;
}

// The significand's digits, `lead` and then `rest`, laid out in fixed
// notation for a decimal exponent in [-4, 16]: "123.45", "1200", "0.00012".
char* lay_out_fixed(char* text, char lead, std::string_view rest, int exponent) noexcept {
  if (exponent < 0) {
    std::memcpy(text, "0.0000", static_cast<std::size_t>(1 - exponent));
    text += 1 - exponent;
    *text++ = lead;
    std::memcpy(text, rest.data(), rest.size());
    return text + rest.size();
  }
  *text++ = lead;
  auto whole = static_cast<std::size_t>(exponent);  // digits of the integer part after lead
  if (rest.size() <= whole) {
    std::memcpy(text, rest.data(), rest.size());
    std::memset(text + rest.size(), '0', whole - rest.size());
    return text + whole;
  }
  std::memcpy(text, rest.data(), whole);
  text[whole] = '.';
  std::memcpy(text + whole + 1, rest.data() + whole, rest.size() - whole);
  return text + rest.size() + 1;
}

// A finite value whose shortest digits' decimal exponent is in [-4, 16) in
// fixed notation: the digits in exponent form, then moved around the point.
template <class T>
std::size_t format_shortest_fixed_by_digits(char* text, T value) noexcept {
  // "-1.2345e+02", the exponent's two digits last.
  char scientific[shortest_fmt_room];
  char* end = std::to_chars(scientific, scientific + sizeof scientific, value,
                            std::chars_format::scientific)
                  .ptr;
  int exponent = (end[-2] - '0') * 10 + (end[-1] - '0');
  if (end[-3] == '-') exponent = -exponent;
  char* out = text;
  const char* first = scientific;
  if (*first == '-') *out++ = *first++;
  const char* mark = end - 4;  // the 'e'
  // The digits after the first ("2345"); none, but at a real address for
  // memcpy, in "1e+15".
  std::string_view rest(first + 1, 0);
  if (first[1] == '.')
    rest = std::string_view(first + 2, static_cast<std::size_t>(mark - first - 2));
  return static_cast<std::size_t>(lay_out_fixed(out, *first, rest, exponent) - text);
}

// format_shortest_fmt: where {fmt} writes fixed notation and every integer
// is a T (below 2^digits: 9.007e15 for a double, 16777216 for a float),
// std::to_chars's fixed notation has the same text; above that it writes a
// float's exact integer value (999999986991104 where {fmt} writes
// 1000000000000000), so there the digits are laid out by hand. Whether the shortest digits' decimal
// exponent is in
// [-4, fixed_below) is told from the value: |value| >= T("1e-4") and <
// T("1e<fixed_below>"). Exact: the digits read back to the value, and
// reading rounds monotonically.
template <class T>
std::size_t format_shortest_fmt_as(char* text, T value, int fixed_below) noexcept {
  constexpr T exact_integers = static_cast<T>(std::uint64_t{1} << std::numeric_limits<T>::digits);
  T magnitude = std::signbit(value) ? -value : value;
  bool fixed_range = magnitude >= power_of_10<T>(-4) && magnitude < power_of_10<T>(fixed_below);
  if (magnitude == 0 || (fixed_range && magnitude < exact_integers))
    return static_cast<std::size_t>(
        std::to_chars(text, text + shortest_fmt_room, value, std::chars_format::fixed).ptr - text);
  if (fixed_range) return format_shortest_fixed_by_digits(text, value);
  return static_cast<std::size_t>(
      std::to_chars(text, text + shortest_fmt_room, value, std::chars_format::scientific).ptr -
      text);
}

}  // namespace

std::size_t format_shortest_fmt(char* text, double value, int fixed_below) noexcept {
  return format_shortest_fmt_as(text, value, fixed_below);
}
std::size_t format_shortest_fmt(char* text, float value, int fixed_below) noexcept {
  return format_shortest_fmt_as(text, value, fixed_below);
}

std::size_t apply_padding(char* text, std::size_t size, const padding& pad) noexcept {
  if (size >= pad.width) return size;
  std::size_t gap = pad.width - size;
  if (pad.fill == '0' && pad.align == align::right && size > 0 && text[0] == '-') {
    // Zeros after the sign, as printf's "%05d".
    std::memmove(text + 1 + gap, text + 1, size - 1);
    std::memset(text + 1, '0', gap);
    return pad.width;
  }
  std::size_t lead = lead_of(gap, pad.align);
  std::memmove(text + lead, text, size);
  std::memset(text, pad.fill, lead);
  std::memset(text + lead + size, pad.fill, gap - lead);
  return pad.width;
}

// Bounds: a sign, the integer digits (309 for a double, 39 for a float), the
// point, the precision's digits and an exponent ("e-308"), with a margin.
std::size_t format_floating(char* text, double value, const float_format& format) noexcept {
  return format_floating_as(text, value, format);
}
std::size_t format_floating(char* text, float value, const float_format& format) noexcept {
  return format_floating_as(text, value, format);
}

}  // namespace detail

void writer::print(bool value) { write(value ? std::string_view("true") : "false"); }
void writer::print(char value) { put(value); }

void writer::print(double value, const float_format& format) {
  auto room = reserve(std::max(detail::float_room_of(value, format), format.padded.width));
  commit(detail::format_floating(room.data(), value, format));
}

void writer::print(float value, const float_format& format) {
  auto room = reserve(std::max(detail::float_room_of(value, format), format.padded.width));
  commit(detail::format_floating(room.data(), value, format));
}

void writer::print(std::string_view text, const padding& pad) {
  std::size_t gap = pad.width > text.size() ? pad.width - text.size() : 0;
  std::size_t lead = detail::lead_of(gap, pad.align);
  auto fill = [this, &pad](std::size_t n) {
    if (n == 0) return;  // nothing to reserve: a closed writer's room has no address
    auto room = reserve(n);
    std::memset(room.data(), pad.fill, n);
    commit(n);
  };
  fill(lead);
  write(text);
  fill(gap - lead);
}

}  // namespace sluice
