// sluice-text2bin: what each input format (CSV, JSON Lines, XML) provides to
// the conversion, which cuts the input into pieces of whole records, parses
// the pieces on several threads and writes their records in input order.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace text2bin {

// One input format. The driver calls, in this order:
//   read_head once, on the input's first bytes, on one thread;
//   whole_records on each next stretch of text, in order, on one thread;
//   parse on each piece whole_records cut, on several threads at once.
// An implementation keeps what the head tells (a CSV header's column order,
// an XML document element's name) and is otherwise stateless: whole_records
// and parse are const and safe to call from several threads together.
// Every bad byte is reported by throwing text_error at its index in the text
// the call was given (text_error.hpp); a message says what was expected and
// what was found.
class format_parser {
 public:
  virtual ~format_parser() = default;

  // Reads the head at the start of `text` (the input's first bytes; all of
  // them if `at_end`): a CSV header row, if there is one; XML's declaration,
  // comments, processing instructions, doctype and the document element's
  // start tag; nothing for JSON Lines. Returns the bytes it takes (the
  // records start there), or std::nullopt if `text` ends before the head
  // does and more input is needed (never when at_end).
  virtual std::optional<std::size_t> read_head(std::string_view text, bool at_end) = 0;

  // `text` starts where records may start (after the head or a piece before
  // it). Returns the length of its longest prefix that ends where records
  // may start again: after a CSV row's line end that is outside quotes,
  // after a JSON line's '\n', after an XML record element (or a comment or
  // whitespace between them). 0 if no such place is in `text` and more
  // input is needed. With `at_end`, `text` is the rest of the input and all
  // of it is returned. A prefix never holds the end of the document (XML's
  // end tag and what follows it): that goes with the last piece, so that
  // only parse(..., last = true) checks it. Reads each byte once at most;
  // throws only if the text cannot be records whatever follows.
  virtual std::size_t whole_records(std::string_view text, bool at_end) const = 0;

  // Parses `piece` (a prefix whole_records returned; `last` if it is the
  // input's final one, with the document's end) and appends its records to
  // `out`, packed, record_size() bytes each, in order. Throws text_error at
  // the first bad byte; `out` then holds what it held before the call plus
  // any records before the bad one.
  virtual void parse(std::string_view piece, bool last, std::vector<unsigned char>& out) const = 0;
};

}  // namespace text2bin
