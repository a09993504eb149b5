// sluice/parse.hpp - sluice::parse<T>(text): a number read from text,
// exactly, or an error that says why not.
//
//   auto id = sluice::parse<std::int64_t>("-42");        // -42
//   auto x = sluice::parse<double>("0.1");               // the double nearest 0.1
//   auto mask = sluice::parse<std::uint32_t>("ff", 16);  // 255
//   sluice::parse<std::int32_t>("3000000000");
//     // throws parse_error, code() ERANGE:
//     // sluice: parse int32 "3000000000": out of range
//
// Types: every integer type, signed char and unsigned char (std::int8_t,
// std::uint8_t) included, since writer::print writes them as numbers; not
// bool, char, wchar_t, char8_t, char16_t or char32_t, whose print writes a
// word or a character (parse<char> does not compile); float and double.
// long double is left out: print does not write it.
//
// What is accepted: the whole text must be the number, nothing skipped.
// - integers: an optional '-' (or '+') and digits in `base` (default 10;
//   2..36, letters in either case, no "0x" prefix), as print(value) and
//   print(value, sluice::hex) write them; leading zeros are fine ("007").
// - float, double: an optional '-' (or '+'), then decimal digits with an
//   optional point and exponent ("1", "-0.5", ".5", "5.", "1e-7",
//   "1.5E+300"), or "inf", "infinity", "nan", "nan(chars)" in any case: what
//   std::from_chars accepts in its general format, which is strtod's in the
//   C locale without hexadecimal floats. The result is the value nearest the
//   text, ties to even, whatever the locale. "-0" is negative zero. NaN
//   payloads are not kept: "nan" and "nan(...)" give the quiet NaN, "-nan"
//   it with the sign bit set.
// - refused with EINVAL: the empty text, a sign alone, spaces or anything
//   else before or after the number ("1 ", " 1", "1,5", "12x", "0x1f"), a
//   second sign ("+-1", "--1"), a point in an integer ("1.0"), an exponent
//   without digits ("1e").
// - refused with ERANGE: an integer outside the type's range (a negative
//   one for an unsigned type, except "-0"), a float or double whose
//   magnitude rounds past the largest finite value, or a nonzero one that
//   rounds to zero (a value that rounds to a subnormal is returned).
//
// Round trip: whatever writer::print writes for a value of T parses back to
// the same bits (a NaN to a NaN of the same sign) when the text holds them
// all: the shortest form (print(x)), full precision (scientific(16) or
// general(17) for a double, scientific(8) or general(9) for a float), fixed
// with as many digits as the value has after the point, and integers in any
// base (parse<T>(text, base)). A shorter fixed, scientific or general text
// parses to the value nearest it.
//
// Cost: std::from_chars inline over the text (the float and double ones are
// calls into the C++ library); a text it does not take whole (a leading
// '+', a refusal) one call more into sluice. No allocation, no locale, no
// errno; only a refusal allocates (its message).
#pragma once

#include <charconv>
#include <concepts>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>

#include "sluice/format.hpp"

namespace sluice {

// Why a text is not a number of the type asked for. code() is EINVAL (not a
// number: malformed) or ERANGE (a number out of the type's range); what() is
//   sluice: parse <type> "<text>": <reason>
//   sluice: parse int32 "12x": expected a decimal integer
// with the text quoted, bytes outside printable ASCII and '"', '\' escaped
// as C does (\x0a, \", \\), and a text longer than 64 bytes cut to its first
// 48 and its length said: "7777...7777..." (300 bytes). Copies share one
// message and never throw.
class parse_error : public std::system_error {
 public:
  // `errno_value` EINVAL or ERANGE; `type` as type() says; `text` the whole
  // text, which the message quotes (escaped, cut); `reason` as reason() says.
  parse_error(int errno_value, std::string_view type, std::string_view text,
              std::string_view reason);

  // The same error, its message saying where the text was read (the line
  // counts from 1, the offset is the text's first byte in the file):
  //   sluice: parse int32 "12x" in 'data.csv' at line 7, offset 4096: expected ...
  parse_error located(std::string_view path, std::uint64_t line, std::uint64_t offset) const;

  // The type asked for, as the message names it: "int32", "uint8", "double".
  const std::string& type() const noexcept { return parts_->type; }
  // The text as the message quotes it, quotes included (escaped, cut if long).
  const std::string& quoted_text() const noexcept { return parts_->quoted; }
  // What was wrong or expected: "out of range", "expected a decimal integer".
  const std::string& reason() const noexcept { return parts_->reason; }
  // Where the text was read, if located(): the path ("" if not), the line
  // (0 if not) and the offset.
  const std::string& path() const noexcept { return parts_->path; }
  std::uint64_t line() const noexcept { return parts_->line; }
  std::uint64_t offset() const noexcept { return parts_->offset; }

  // The message above, without the strerror text std::system_error would
  // add: the reason says it.
  const char* what() const noexcept override { return parts_->message.c_str(); }

 private:
  struct parts {
    std::string type, quoted, reason, path;
    std::uint64_t line = 0, offset = 0;
    std::string message;  // made from the others
  };
  parse_error(int errno_value, parts what);

  std::shared_ptr<const parts> parts_;
};

namespace detail {

// The number types parse<T> reads.
template <class T>
concept text_number = text_integer<T> || std::same_as<T, float> || std::same_as<T, double>;

// parse<T>'s whole work, one per type (src/text/parse.cpp): a leading '+',
// "-0" for an unsigned type, and the refusals; sets `value` or throws.
// `base` is 10 for float and double.
void parse_into(std::string_view text, signed char& value, int base);
void parse_into(std::string_view text, unsigned char& value, int base);
void parse_into(std::string_view text, short& value, int base);
void parse_into(std::string_view text, unsigned short& value, int base);
void parse_into(std::string_view text, int& value, int base);
void parse_into(std::string_view text, unsigned& value, int base);
void parse_into(std::string_view text, long& value, int base);
void parse_into(std::string_view text, unsigned long& value, int base);
void parse_into(std::string_view text, long long& value, int base);
void parse_into(std::string_view text, unsigned long long& value, int base);
void parse_into(std::string_view text, float& value, int base);
void parse_into(std::string_view text, double& value, int base);

// Throws std::invalid_argument: `base` is not 2..36.
[[noreturn]] void refuse_base(int base);

// std::from_chars for any text_number: `base` for an integer, the general
// format for float and double (which have no base).
template <text_number T>
std::from_chars_result from_chars_of(const char* first, const char* last, T& value, int base) {
  if constexpr (std::floating_point<T>)
    return std::from_chars(first, last, value);
  else
    return std::from_chars(first, last, value, base);
}

// True, with `value` set, if std::from_chars takes the whole text: the
// common case, inline. What it refuses (a '+', "-0" for an unsigned type,
// any error) is left to parse_into.
template <text_number T>
bool from_chars_whole(std::string_view text, T& value, int base) {
  const char* last = text.data() + text.size();
  auto result = from_chars_of(text.data(), last, value, base);
  return result.ec == std::errc{} && result.ptr == last;
}

template <text_number T>
T parse_inline(std::string_view text, int base) {
  T value;
  if (from_chars_whole(text, value, base)) [[likely]]
    return value;
  parse_into(text, value, base);
  return value;
}

}  // namespace detail

// The number `text` holds, exactly (see the top of this file for what is
// accepted). Throws parse_error: EINVAL for a text that is not a number of
// this kind, ERANGE for one out of T's range.
template <detail::text_number T>
T parse(std::string_view text) {
  return detail::parse_inline<T>(text, 10);
}

// An integer in `base` (2..36; letters in either case, no prefix), as
// print(value, sluice::base(b)) writes it: parse<unsigned>("ff", 16) is
// 255. Throws parse_error as above, and std::invalid_argument for a base
// outside 2..36.
template <detail::text_integer T>
T parse(std::string_view text, int base) {
  if (base < 2 || base > 36) detail::refuse_base(base);
  return detail::parse_inline<T>(text, base);
}

}  // namespace sluice
