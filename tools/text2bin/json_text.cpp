#include "text2bin/json_text.hpp"

#include <algorithm>
#include <cstdio>

#include "text2bin/text_error.hpp"
#include "text2bin/utf8.hpp"

namespace text2bin::json {
namespace {

bool starts_with(const cursor& in, std::string_view word) noexcept {
  return static_cast<std::size_t>(in.end - in.p) >= word.size() &&
         std::string_view(in.p, word.size()) == word;
}

std::string hex_byte(unsigned char c) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02x", c);
  return text;
}

// The four hex digits at in.p, after "\u"; moves past them.
unsigned read_hex4(cursor& in) {
  unsigned code = 0;
  for (int i = 0; i < 4; ++i, ++in.p) {
    char c = in.done() ? '\0' : *in.p;
    int digit = is_digit(c)                              ? c - '0'
                : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10
                                                         : -1;
    if (digit < 0) refuse(in, "4 hex digits after \\u");
    code = code << 4 | static_cast<unsigned>(digit);
  }
  return code;
}

// The \u escape at in.p (its '\'), a surrogate pair's two included; moves
// past it and returns its code point.
unsigned read_unicode_escape(cursor& in) {
  const char* escape = in.p;
  in.p += 2;
  unsigned code = read_hex4(in);
  if (code >= 0xdc00 && code <= 0xdfff)
    throw text_error(static_cast<std::size_t>(escape - in.base),
                     "expected a \\uD800-\\uDBFF high surrogate before the low surrogate " +
                         std::string(escape, 6));
  if (code < 0xd800 || code > 0xdbff) return code;
  std::string high(escape, 6);
  if (!starts_with(in, "\\u")) refuse(in, "a \\uDC00-\\uDFFF low surrogate after " + high);
  const char* second = in.p;
  in.p += 2;
  unsigned low = read_hex4(in);
  if (low < 0xdc00 || low > 0xdfff)
    throw text_error(static_cast<std::size_t>(second - in.base),
                     "expected a \\uDC00-\\uDFFF low surrogate after " + high + ", found " +
                         std::string(second, 6));
  return 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
}

// The escape at in.p (its '\') appended to `out` decoded; moves past it.
void read_escape(cursor& in, std::string& out) {
  if (in.end - in.p >= 2 && in.p[1] == 'u') return append_utf8(out, read_unicode_escape(in));
  ++in.p;
  char c = in.done() ? '\0' : *in.p;
  constexpr std::string_view escaped = "\"\\/bfnrt", meant = "\"\\/\b\f\n\r\t";
  std::size_t which = in.done() ? escaped.npos : escaped.find(c);
  if (which == escaped.npos)
    refuse(in, "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX) after '\\'");
  out += meant[which];
  ++in.p;
}

// The rest of a key that has escapes, control characters or bytes past
// ASCII, from in.p; `out` holds its start.
std::string_view read_key_rest(cursor& in, std::string& out) {
  for (;;) {
    if (in.done()) throw text_error(in.at(), "expected '\"' to end the key, found the line end");
    auto c = static_cast<unsigned char>(*in.p);
    if (c == '"') {
      ++in.p;
      return out;
    }
    if (c == '\\') {
      read_escape(in, out);
    } else if (c < 0x20) {
      throw text_error(in.at(), "expected a character of the key, found control character " +
                                    hex_byte(c) + " (JSON writes it as an escape)");
    } else if (c < 0x80) {
      out += static_cast<char>(c);
      ++in.p;
    } else {
      std::size_t length = utf8_length(reinterpret_cast<const unsigned char*>(in.p),
                                       static_cast<std::size_t>(in.end - in.p));
      if (length == 0) throw text_error(in.at(), "invalid UTF-8 in a key at byte " + hex_byte(c));
      out.append(in.p, length);
      in.p += length;
    }
  }
}

void skip_digits(cursor& in) noexcept { in.p = json::skip_digits(in.p, in.end); }

void expect_digit(cursor& in, const char* where) {
  if (in.done() || !is_digit(*in.p)) refuse(in, std::string("a digit ") + where);
  skip_digits(in);
}

}  // namespace

std::string found(const cursor& in) {
  if (in.done()) return "the line end";
  auto c = static_cast<unsigned char>(*in.p);
  if (c > 0x20 && c < 0x7f) return std::string{'\'', static_cast<char>(c), '\''};
  return "byte " + hex_byte(c);
}

void refuse(const cursor& in, std::string_view what) {
  std::string message = "expected ";
  message.append(what).append(", found ").append(found(in));
  throw text_error(in.at(), message);
}

std::string found_value(const cursor& in) {
  if (in.done()) return found(in);
  switch (*in.p) {
    case '"': return "a string";
    case '{': return "an object";
    case '[': return "an array";
  }
  for (std::string_view word : {"true", "false", "null"})
    if (starts_with(in, word)) return std::string(word);
  return found(in);
}

std::string_view read_key(cursor& in, std::string& scratch) {
  const char* first = ++in.p;
  while (!in.done()) {
    auto c = static_cast<unsigned char>(*in.p);
    if (c == '"') return {first, static_cast<std::size_t>(in.p++ - first)};
    if (c == '\\' || c < 0x20 || c >= 0x80) break;
    ++in.p;
  }
  scratch.assign(first, in.p);
  return read_key_rest(in, scratch);
}

std::string quoted_key(const char* first, const char* after) {
  std::size_t size = static_cast<std::size_t>(after - first), shown = size;
  if (size > 64) {
    shown = 48;
    while (shown > 1 && (static_cast<unsigned char>(first[shown]) & 0xc0) == 0x80) --shown;
  }
  std::string quoted;
  for (char c : std::string_view(first, shown))
    c == 0x7f ? quoted.append("\\u007f") : quoted.append(1, c);
  if (shown < size) quoted.append("...\" (").append(std::to_string(size)).append(" bytes)");
  return quoted;
}

bool skip_number_checked(cursor& in) {
  if (*in.p == '-') ++in.p;
  if (in.done() || !is_digit(*in.p)) refuse(in, "a digit after '-'");
  if (*in.p++ == '0' && !in.done() && is_digit(*in.p))
    refuse(in, "'.', 'e' or the number's end after a leading 0");
  skip_digits(in);
  bool plain = true;
  if (!in.done() && *in.p == '.') {
    plain = false;
    ++in.p;
    expect_digit(in, "after '.'");
  }
  if (!in.done() && (*in.p == 'e' || *in.p == 'E')) {
    plain = false;
    ++in.p;
    if (!in.done() && (*in.p == '+' || *in.p == '-')) ++in.p;
    expect_digit(in, "in the exponent");
  }
  return plain;
}

integer_text as_integer(std::string_view number, std::string& scratch) {
  const char* p = number.data();
  const char* end = p + number.size();
  bool negative = *p == '-';
  p += negative;
  scratch.clear();
  long long exponent = 0;  // of the digits in scratch, the point dropped
  for (; p != end && is_digit(*p); ++p) scratch += *p;
  if (p != end && *p == '.')
    for (++p; p != end && is_digit(*p); ++p, --exponent) scratch += *p;
  if (p != end) {  // 'e' or 'E'
    bool down = *++p == '-';
    p += *p == '-' || *p == '+';
    long long written = 0;  // saturated: a larger one is too long whatever the digits
    for (; p != end; ++p) written = std::min(written * 10 + (*p - '0'), 1'000'000'000LL);
    exponent += down ? -written : written;
  }
  std::size_t first = scratch.find_first_not_of('0');
  if (first == std::string::npos) return {integer_text::exact, "0"};
  scratch.erase(0, first);
  while (exponent < 0 && scratch.back() == '0') scratch.pop_back(), ++exponent;
  if (exponent < 0) return {integer_text::not_whole, {}};
  if (static_cast<long long>(scratch.size()) + exponent > 20) return {integer_text::too_long, {}};
  scratch.append(static_cast<std::size_t>(exponent), '0');
  if (negative) scratch.insert(0, 1, '-');
  return {integer_text::exact, scratch};
}

}  // namespace text2bin::json
