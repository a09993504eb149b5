// sluice-text2bin: the pieces of JSON text a JSON Lines record is made of
// (whitespace, keys, numbers), read within one line.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace text2bin::json {

// A line being read: `p` moves from the line's start to `end` (its '\n' or
// the text's end); `base` is the start of the text the parser was given, so
// that p - base is the index a text_error names.
struct cursor {
  const char* base;
  const char* p;
  const char* end;

  std::size_t at() const noexcept { return static_cast<std::size_t>(p - base); }
  bool done() const noexcept { return p == end; }
};

// Moves past JSON whitespace (space, tab, carriage return; a line has no
// '\n'). Inline: it runs between every token.
inline void skip_space(cursor& in) noexcept {
  while (in.p != in.end && (*in.p == ' ' || *in.p == '\t' || *in.p == '\r')) ++in.p;
}

// What is at in.p, as an error says it: "'x'", "byte 0x07", "the line end".
std::string found(const cursor& in);

// Throws text_error at in.p: "expected <what>, found <found(in)>".
[[noreturn]] void refuse(const cursor& in, std::string_view what);

// What is at in.p where a value belongs: "a string", "an object", "an
// array", "true", "false", "null", or as found() says.
std::string found_value(const cursor& in);

// Reads the string at in.p (its opening '"') as a key: returns its text,
// escapes decoded (a view of the line itself when it has none, else of
// `scratch`), and leaves in.p after its closing '"'. Throws text_error at
// the byte: an unterminated key, a bad escape or \u sequence (a lone
// surrogate), a control character, invalid UTF-8.
std::string_view read_key(cursor& in, std::string& scratch);

// The key whose text starts at in.p ('"' included) and ends before `after`,
// as a message quotes it: as written (a raw DEL, which JSON allows, shown as
// \u007f), cut after 48 bytes if longer than 64.
std::string quoted_key(const char* first, const char* after);

inline bool is_digit(char c) noexcept { return static_cast<unsigned char>(c - '0') < 10; }

// The first byte at or after `p` that is not a decimal digit, or `end`.
// Eight bytes at a time while eight are left (on little-endian hosts): a
// number's digits are most of a JSON Lines record.
inline const char* skip_digits(const char* p, const char* end) noexcept {
  if constexpr (std::endian::native == std::endian::little) {
    constexpr std::uint64_t ones = 0x0101010101010101, high = ones * 0x80;
    while (end - p >= 8) {
      std::uint64_t bytes;
      std::memcpy(&bytes, p, 8);
      std::uint64_t low7 = bytes & ~high;  // adding to it carries into no other byte
      std::uint64_t not_digit = (bytes | (low7 + ones * 0x46) | ~(low7 + ones * 0x50)) & high;
      if (not_digit) return p + std::countr_zero(not_digit) / 8;
      p += 8;
    }
  }
  while (p != end && is_digit(*p)) ++p;
  return p;
}

// skip_number's whole work, for a number its inline part does not take:
// throws text_error at a missing digit or a leading zero.
bool skip_number_checked(cursor& in);

// Moves past the JSON number at in.p (a '-' or a digit): -?(0|[1-9]\d*)
// (\.\d+)?([eE][+-]?\d+)?. Returns true if it has neither fraction nor
// exponent. Throws text_error at a missing digit or a leading zero. Inline:
// it runs for every value.
inline bool skip_number(cursor& in) {
  const char* first = in.p + (*in.p == '-');
  const char* p = skip_digits(first, in.end);
  if (p == first || (*first == '0' && p - first > 1)) return skip_number_checked(in);
  bool plain = true;
  if (p != in.end && *p == '.') {
    const char* fraction = p + 1;
    p = skip_digits(fraction, in.end);
    if (p == fraction) return skip_number_checked(in);
    plain = false;
  }
  if (p != in.end && (*p | 0x20) == 'e') {
    const char* exponent = p + 1;
    if (exponent != in.end && (*exponent == '+' || *exponent == '-')) ++exponent;
    p = skip_digits(exponent, in.end);
    if (p == exponent) return skip_number_checked(in);
    plain = false;
  }
  in.p = p;
  return plain;
}

// A JSON number with a fraction or exponent as an integer's decimal text,
// for an integer field: "1.0" -> "1", "-2.5e1" -> "-25", "1e2" -> "100".
struct integer_text {
  enum { exact, not_whole, too_long } kind;
  std::string_view text;  // the digits (in `scratch`), when exact
};
integer_text as_integer(std::string_view number, std::string& scratch);

}  // namespace text2bin::json
