#include "text2bin/xml_scanner.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstdint>

#include "text2bin/text_error.hpp"
#include "text2bin/utf8.hpp"

namespace text2bin::xml {
namespace {

constexpr bool is_name_start(unsigned char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

// The ASCII bytes a name may hold after its first.
constexpr auto in_name = [] {
  std::array<bool, 256> name{};
  for (int c = 0; c < 128; ++c)
    name[c] = is_name_start(static_cast<unsigned char>(c)) || (c >= '0' && c <= '9') || c == '-' ||
              c == '.';
  return name;
}();

// XML's Char: what a character reference may stand for.
bool is_xml_char(std::uint32_t c) noexcept {
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
         (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

// The character `reference` ("#48", "#x30", without '&' and ';') stands
// for; throws text_error at `at` if it is malformed or no XML character.
std::uint32_t character(std::string_view reference, std::size_t at) {
  bool hex = reference.size() > 1 && reference[1] == 'x';
  std::string_view digits = reference.substr(hex ? 2 : 1);
  std::uint32_t c = 0;
  auto [end, error] =
      std::from_chars(digits.data(), digits.data() + digits.size(), c, hex ? 16 : 10);
  std::string spelt = "'&" + std::string(reference) + ";'";
  if (digits.empty() || error == std::errc::invalid_argument ||
      end != digits.data() + digits.size() || digits[0] == '+' || digits[0] == '-')
    throw text_error(at, "malformed character reference " + spelt + ": expected " +
                             (hex ? "hexadecimal" : "decimal") + " digits");
  if (error == std::errc::result_out_of_range || !is_xml_char(c))
    throw text_error(at, "character reference " + spelt + " is not to an XML character");
  return c;
}

// The bytes a quoted value's scan stops at: either quote, '<', '&', control
// characters and all beyond ASCII; and a start tag's: either quote (a value
// may hold '>'), '<' and '>'.
constexpr auto in_value_special = [] {
  std::array<bool, 256> special{};
  for (int c = 0; c < 256; ++c)
    special[c] = c < 0x20 || c >= 0x80 || c == '"' || c == '\'' || c == '<' || c == '&';
  return special;
}();
constexpr auto in_tag_special = [] {
  std::array<bool, 256> special{};
  for (int c : {'"', '\'', '>', '<'}) special[c] = true;
  return special;
}();

// The first position from `at` (below `size`) whose byte `special` marks,
// or `size`. `mask` gives the same for 16 bytes at once (bit i set for a
// special byte i), where SSE2 is there: values and tags are short, and most
// are passed in one or two steps.
template <class Mask>
std::size_t first_special(const unsigned char* s, std::size_t at, std::size_t size,
                          const std::array<bool, 256>& special, Mask mask) noexcept {
#ifdef __SSE2__
  for (; at + 16 <= size; at += 16) {
    unsigned bits = mask(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + at)));
    if (bits != 0) return at + static_cast<std::size_t>(std::countr_zero(bits));
  }
#else
  (void)mask;
#endif
  while (at < size && !special[s[at]]) ++at;
  return at;
}

#ifdef __SSE2__
unsigned tag_mask(__m128i v) noexcept {
  __m128i hits =
      _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\'')));
  hits = _mm_or_si128(hits, _mm_cmpeq_epi8(v, _mm_set1_epi8('<')));
  hits = _mm_or_si128(hits, _mm_cmpeq_epi8(v, _mm_set1_epi8('>')));
  return static_cast<unsigned>(_mm_movemask_epi8(hits));
}
#else
constexpr int value_stops = 0;
constexpr int tag_mask = 0;
#endif

// The character an entity reference's name stands for, or 0.
char entity(std::string_view name) noexcept {
  if (name == "lt") return '<';
  if (name == "gt") return '>';
  if (name == "amp") return '&';
  if (name == "quot") return '"';
  if (name == "apos") return '\'';
  return 0;
}

}  // namespace

bool scanner::starts(std::size_t at, std::string_view literal) const {
  std::size_t n = std::min(literal.size(), size() - std::min(at, size()));
  if (text_.substr(at, n) != literal.substr(0, n)) return false;
  if (n < literal.size()) ran_out("'" + std::string(literal) + "'");
  return true;
}

std::size_t scanner::expect(std::size_t at, char c, std::string_view what) const {
  if (this->at(at, what) != c) refuse(at, what);
  return at + 1;
}

std::size_t scanner::name_end(std::size_t at, std::string_view what) const {
  auto c = static_cast<unsigned char>(this->at(at, what));
  if (!is_name_start(c) && c < 0x80) refuse(at, what);
  const auto* s = reinterpret_cast<const unsigned char*>(text_.data());
  const std::size_t n = size();
  for (;;) {
    while (at < n && in_name[s[at]]) ++at;
    if (at == n || s[at] < 0x80) break;
    at += utf8_length_at(at, what);
  }
  if (at == n && !at_end_) throw more_needed{};
  return at;
}

quoted_value scanner::quoted_slowly(std::size_t at, bool check) const {
  char quote = this->at(at, "a quoted value");
  if (quote != '"' && quote != '\'') refuse(at, "'\"' or ''' opening a value");
  quoted_value v{at + 1, 0, 0, false};
  const auto* s = reinterpret_cast<const unsigned char*>(text_.data());
  const std::size_t n = size();
  for (std::size_t i = at + 1;; ++i) {
    i = first_special(s, i, n, in_value_special, value_stops);
    if (i >= n) ran_out(std::string("the closing ") + quote + " of a value");
    unsigned char c = s[i];
    if (c == static_cast<unsigned char>(quote)) {
      v.end = i;
      v.after = i + 1;
      return v;
    }
    if (c == '<') throw text_error(i, "'<' is not allowed in an attribute value: expected '&lt;'");
    if (c == '&' || c == '\t' || c == '\n' || c == '\r') {
      v.needs_decoding = true;
    } else if (check && c < 0x20) {
      check_chars(i, 1, "an attribute value");
    } else if (check && c >= 0x80) {
      i += utf8_length_at(i, "an attribute value") - 1;
    }
  }
}

void scanner::decode(const quoted_value& v, std::string& out) const {
  out.clear();
  for (std::size_t i = v.begin; i < v.end; ++i) {
    char c = text_[i];
    if (c != '&') {
      out += is_space(c) ? ' ' : c;
      continue;
    }
    std::size_t semicolon = text_.substr(0, v.end).find(';', i);
    if (semicolon == std::string_view::npos)
      throw text_error(i, "expected a reference ending in ';' after '&' in an attribute value");
    std::string_view name = text_.substr(i + 1, semicolon - i - 1);
    if (!name.empty() && name[0] == '#') {
      append_utf8(out, character(name, i));
    } else if (char replaced = entity(name)) {
      out += replaced;
    } else {
      throw text_error(i, "unknown entity '&" + std::string(name.substr(0, 40)) +
                              ";': expected &lt; &gt; &amp; &quot; &apos; or a character "
                              "reference (no doctype declares others)");
    }
    i = semicolon;
  }
}

std::size_t scanner::tag_stop(std::size_t at) const noexcept {
  return first_special(reinterpret_cast<const unsigned char*>(text_.data()), at, size(),
                       in_tag_special, tag_mask);
}

std::size_t scanner::tag_end(std::size_t at) const noexcept {
#ifdef __SSE2__
  unsigned inside = 0;  // all ones while a value goes on from the block before
  for (; at + 16 <= size(); at += 16) {
    __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text_.data() + at));
    auto mask = [block](char c) {
      return static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(block, _mm_set1_epi8(c))));
    };
    unsigned in_value = mask('"');  // then bit i: an odd number of quotes up to byte i
    in_value ^= in_value << 1;
    in_value ^= in_value << 2;
    in_value ^= in_value << 4;
    in_value ^= in_value << 8;
    in_value = (in_value ^ inside) & 0xFFFF;
    unsigned ends = mask('>') & ~in_value;
    unsigned first = ends != 0 ? static_cast<unsigned>(std::countr_zero(ends)) : 16;
    if ((mask('\'') | mask('<')) & ((1u << first) - 1)) return std::string_view::npos;
    if (ends != 0) return at + first;
    inside = in_value & 0x8000 ? 0xFFFF : 0;
  }
#else
  (void)at;
#endif
  return std::string_view::npos;
}

std::size_t scanner::skip_comment(std::size_t at, bool check) const {
  std::size_t body = at + 4;
  std::size_t close = find(body, "-->", "'-->' ending the comment");
  if (check) {
    std::size_t dashes = text_.find("--", body);
    if (dashes < close) throw text_error(dashes, "'--' is not allowed inside a comment");
    check_chars(body, close - body, "a comment");
  }
  return close + 3;
}

std::size_t scanner::skip_pi(std::size_t at, bool check) const {
  std::size_t target = at + 2;
  std::size_t target_end = name_end(target, "a processing instruction's target");
  std::string_view name = text_.substr(target, target_end - target);
  if (check && name.size() == 3 && (name[0] | 0x20) == 'x' && (name[1] | 0x20) == 'm' &&
      (name[2] | 0x20) == 'l')
    throw text_error(at, "the XML declaration '<?xml ...?>' is only allowed at the very start");
  std::size_t close = find(target_end, "?>", "'?>' ending the processing instruction");
  if (close > target_end && !is_space(text_[target_end]))
    refuse(target_end, "whitespace or '?>' after the processing instruction's target");
  if (check) check_chars(target_end, close - target_end, "a processing instruction");
  return close + 2;
}

std::size_t scanner::skip_cdata(std::size_t at, bool check, std::size_t& text_at) const {
  std::size_t body = at + 9;
  std::size_t close = find(body, "]]>", "']]>' ending the CDATA section");
  std::size_t first = skip_space(body);
  text_at = first < close ? first : std::string_view::npos;
  if (check) check_chars(body, close - body, "a CDATA section");
  return close + 3;
}

std::size_t scanner::skip_misc(std::size_t at, bool check, bool cdata,
                               std::string_view what) const {
  for (;;) {
    at = skip_space(at);
    std::size_t after = skip_markup(at, check, cdata, what);
    if (after == at) return at;
    at = after;
  }
}

std::size_t scanner::skip_markup(std::size_t at, bool check, bool cdata,
                                 std::string_view what) const {
  if (at == size() || text_[at] != '<') return at;
  char next = this->at(at + 1, what);
  if (next == '?') return skip_pi(at, check);
  if (next != '!') return at;
  if (starts(at, "<!--")) return skip_comment(at, check);
  if (!cdata || !starts(at, "<![CDATA[")) return at;
  std::size_t text_at;
  std::size_t after = skip_cdata(at, check, text_at);
  if (text_at != std::string_view::npos)
    throw text_error(text_at, "expected " + std::string(what) + ", found text in a CDATA section");
  return after;
}

void scanner::ran_out(std::string_view expected) const {
  if (!at_end_) throw more_needed{};
  throw text_error(size(), "expected " + std::string(expected) + ", found the end of the input");
}

void scanner::refuse(std::size_t at, std::string_view expected) const {
  if (at >= size()) ran_out(expected);
  throw text_error(at, "expected " + std::string(expected) + ", found " + found(at));
}

std::string scanner::found(std::size_t at) const {
  if (at >= size()) return "the end of the input";
  auto c = static_cast<unsigned char>(text_[at]);
  if (c > ' ' && c < 0x7F) return std::string("'") + static_cast<char>(c) + "'";
  if (c == ' ') return "a space";
  if (c == '\n' || c == '\r') return "a line end";
  static constexpr char digits[] = "0123456789abcdef";
  return std::string("byte 0x") + digits[c >> 4] + digits[c & 0xF];
}

std::size_t scanner::bad_char(std::size_t at, std::size_t count) const noexcept {
  const auto* s = reinterpret_cast<const unsigned char*>(text_.data());
  std::size_t end = at + count;
  while (at < end) {
    unsigned char c = s[at];
    if (c >= 0x80) {
      std::size_t length = utf8_length(s + at, end - at);
      if (length == 0) return at;
      at += length;
    } else {
      if (c < 0x20 && !is_space(static_cast<char>(c))) return at;
      ++at;
    }
  }
  return end;
}

std::size_t scanner::utf8_length_at(std::size_t at, std::string_view where) const {
  std::size_t length =
      utf8_length(reinterpret_cast<const unsigned char*>(text_.data()) + at, size() - at);
  if (length != 0) return length;
  if (!at_end_ && size() - at < 4) throw more_needed{};
  throw text_error(at, "invalid UTF-8 in " + std::string(where));
}

void scanner::check_chars(std::size_t at, std::size_t count, std::string_view where) const {
  std::size_t bad = bad_char(at, count);
  if (bad == at + count) return;
  if (static_cast<unsigned char>(text_[bad]) >= 0x80)
    throw text_error(bad, "invalid UTF-8 in " + std::string(where));
  throw text_error(bad, found(bad) + " is not allowed in " + std::string(where) +
                            ": XML has no control characters");
}

std::size_t scanner::find(std::size_t at, std::string_view end, std::string_view what) const {
  std::size_t place = text_.find(end, at);
  if (place == std::string_view::npos) ran_out(what);
  return place;
}

}  // namespace text2bin::xml
