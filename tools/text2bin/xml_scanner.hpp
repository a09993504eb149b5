// sluice-text2bin's XML: the lexical pieces every part of the document is
// made of (names, quoted values, entities, comments, processing
// instructions, CDATA sections), read from a position in a text.
#pragma once

#include <bit>
#include <cstddef>
#include <string>
#include <string_view>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace text2bin::xml {

#ifdef __SSE2__
// Bit i set for each byte i of `block` where a quoted value's scan stops:
// either quote, '<', '&', control characters and all beyond ASCII.
inline unsigned value_stops(__m128i block) noexcept {
  __m128i hits = _mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8('"')),
                              _mm_cmpeq_epi8(block, _mm_set1_epi8('\'')));
  hits = _mm_or_si128(hits, _mm_cmpeq_epi8(block, _mm_set1_epi8('<')));
  hits = _mm_or_si128(hits, _mm_cmpeq_epi8(block, _mm_set1_epi8('&')));
  hits = _mm_or_si128(hits, _mm_cmplt_epi8(block, _mm_set1_epi8(0x20)));  // signed: >= 0x80 too
  return static_cast<unsigned>(_mm_movemask_epi8(hits));
}
#endif

// Thrown by a scanner that is not at the input's end when its text ends
// before the construct it reads does: more input may complete it.
struct more_needed {};

// A quoted value's place: its bytes between the quotes, the position after
// the closing quote, and whether it holds a reference or a tab or line end
// (decode() gives its value then; otherwise the bytes are the value).
struct quoted_value {
  std::size_t begin;
  std::size_t end;
  std::size_t after;
  bool needs_decoding;
};

// Reads XML constructs from positions in `text`. A call given a position
// returns the one after what it read. At bad text it throws text_error at
// the first bad byte, saying what was expected and what was found. When the
// text ends inside a construct it throws more_needed, or, if `at_end`,
// text_error "expected ..., found the end of the input". Holds a view: the
// text must outlive it. No allocation except decode()'s and errors'.
class scanner {
 public:
  scanner(std::string_view text, bool at_end) noexcept : text_(text), at_end_(at_end) {}

  std::string_view text() const noexcept { return text_; }
  std::size_t size() const noexcept { return text_.size(); }

  // The first position from `at` that is not XML whitespace (space, tab,
  // CR, LF); size() if none.
  std::size_t skip_space(std::size_t at) const noexcept {
    while (at < text_.size() && is_space(text_[at])) ++at;
    return at;
  }

  static bool is_space(char c) noexcept { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

  // Whether `literal` is at `at`. If the text ends before it could tell,
  // ends as the class says (more_needed or an error expecting `literal`).
  bool starts(std::size_t at, std::string_view literal) const;

  // The byte at `at`; at the text's end, ends as the class says,
  // `expected` naming what was wanted.
  char at(std::size_t at, std::string_view expected) const {
    if (at >= text_.size()) ran_out(expected);
    return text_[at];
  }

  // Checks that `c` is at `at`; throws "expected <what>, found ..." if not.
  std::size_t expect(std::size_t at, char c, std::string_view what) const;

  // The end of the XML name at `at` (ASCII letters, digits, '_', ':', '-',
  // '.', and any valid UTF-8 beyond ASCII; not starting with a digit, '-'
  // or '.'); `what` names it in an error ("an element name").
  std::size_t name_end(std::size_t at, std::string_view what) const;

  // The first position from `at` holding a quote, '<' or '>' (where a
  // start tag's scan stops), or size().
  std::size_t tag_stop(std::size_t at) const noexcept;

  // The '>' ending the start tag whose attributes start at `at`, found 16
  // bytes at a time by tracking double quotes (a value may hold '>'); npos
  // where that cannot tell: a single quote or a '<' before it, fewer than 16
  // bytes left, no SSE2. Then tag_stop and quoted find it exactly.
  std::size_t tag_end(std::size_t at) const noexcept;

  // A value in quotes at `at` (either quote). With `check`, refuses '<', a
  // control character and invalid UTF-8 in it. Inline for the usual value
  // (shorter than 32 bytes, nothing in it to check or decode).
  quoted_value quoted(std::size_t at, bool check) const {
#ifdef __SSE2__
    if (at + 33 <= size() && (text_[at] == '"' || text_[at] == '\'')) {
      const char* p = text_.data() + at + 1;
      unsigned stops = value_stops(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
      if (stops == 0)
        stops = value_stops(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16))) << 16;
      std::size_t end = at + 1 + static_cast<std::size_t>(std::countr_zero(stops));
      if (stops != 0 && text_[end] == text_[at]) return {at + 1, end, end + 1, false};
    }
#endif
    return quoted_slowly(at, check);
  }

  // The value `v` stands for: references (&lt; &gt; &amp; &quot; &apos;,
  // &#N; &#xN;) replaced, a tab or line end made a space (attribute value
  // normalization), into `out`. Throws text_error at an unknown entity, a
  // malformed reference or one to a non-character.
  void decode(const quoted_value& v, std::string& out) const;

  // Skips the comment, processing instruction or CDATA section starting at
  // `at` ("<!--", "<?", "<![CDATA["). With `check` also refuses what may
  // not be inside (invalid UTF-8, control characters, "--" in a comment, a
  // target named "xml" in any case). skip_cdata sets `blank` to whether its
  // content is all whitespace; `text_at` to its first byte that is not.
  std::size_t skip_comment(std::size_t at, bool check) const;
  std::size_t skip_pi(std::size_t at, bool check) const;
  std::size_t skip_cdata(std::size_t at, bool check, std::size_t& text_at) const;

  // Skips whitespace, comments and processing instructions (and CDATA
  // sections holding only whitespace, if `cdata`) from `at`; returns the
  // first position that is none of them (size() at the text's end).
  // Refuses a CDATA section with text at its first non-space byte, as
  // "expected <what>".
  std::size_t skip_misc(std::size_t at, bool check, bool cdata, std::string_view what) const;

  // skip_misc for one comment, processing instruction or CDATA section at
  // `at`: the position after it, or `at` if none is there.
  std::size_t skip_markup(std::size_t at, bool check, bool cdata, std::string_view what) const;

  // Ends as the class says: more_needed, or text_error at size() "expected
  // <expected>, found the end of the input".
  [[noreturn]] void ran_out(std::string_view expected) const;

  // Throws text_error(at, "expected <expected>, found <what is at `at`>").
  [[noreturn]] void refuse(std::size_t at, std::string_view expected) const;

  // What is at `at`, as a message names it: 'x', byte 0x01, the end of the
  // input.
  std::string found(std::size_t at) const;

 private:
  quoted_value quoted_slowly(std::size_t at, bool check) const;

  // Where the first of `count` bytes of free text from `at` that may not be
  // in XML (a control character, invalid UTF-8) is, or `at + count`.
  std::size_t bad_char(std::size_t at, std::size_t count) const noexcept;
  // The length of the UTF-8 sequence at `at`; throws "invalid UTF-8 in
  // <where>", or more_needed for what may be a sequence cut by the text's end.
  std::size_t utf8_length_at(std::size_t at, std::string_view where) const;
  void check_chars(std::size_t at, std::size_t count, std::string_view where) const;
  std::size_t find(std::size_t at, std::string_view end, std::string_view what) const;

  std::string_view text_;
  bool at_end_;
};

// a == b, for names a few bytes long: a loop the compiler keeps inline
// where == calls memcmp.
inline bool same_name(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

}  // namespace text2bin::xml
