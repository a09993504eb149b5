// xml_parser::parse: a piece's record elements into packed records.
#include "text2bin/text_error.hpp"
#include "text2bin/xml_parser.hpp"
#include "text2bin/xml_scanner.hpp"

namespace text2bin {

using xml::scanner;

void xml_parser::parse(std::string_view piece, bool last, std::vector<unsigned char>& out) const {
  scanner s(piece, true);
  if (document_closed_) {  // <records/>: the document has ended already
    std::size_t at = s.skip_misc(0, true, false, misc_);
    if (at != piece.size()) s.refuse(at, misc_ + " after the document element");
    return;
  }
  std::vector<std::size_t> seen(field_names_.size(), 0);  // the stamp of the record that set each
  std::string decoded;
  std::size_t stamp = 0;
  std::size_t kept = out.size();  // what stays if a record is refused
  bool ended = false;
  try {
    for (std::size_t at = 0;;) {
      at = s.skip_space(at);
      if (at == piece.size()) break;
      if (piece[at] != '<') s.refuse(at, element_ + " or whitespace");
      char next = s.at(at + 1, element_);
      if (next == '/') {
        document_end(s, at);
        ended = true;
        break;
      }
      if (next == '!' || next == '?') {
        std::size_t after = s.skip_misc(at, true, true, element_);
        if (after == at) s.refuse(at, element_ + ", a comment or a CDATA section");
        at = after;
        continue;
      }
      kept = out.size();
      out.resize(kept + encoder_.record_size());
      at = record(s, at, out.data() + kept, seen, ++stamp, decoded);
      kept = out.size();
    }
  } catch (...) {
    out.resize(kept);
    throw;
  }
  if (last && !ended) s.ran_out("'</" + document_name_ + ">' ending the document");
}

std::size_t xml_parser::record(const scanner& s, std::size_t at, unsigned char* out,
                               std::vector<std::size_t>& seen, std::size_t stamp,
                               std::string& decoded) const {
  std::string_view text = s.text();
  check_element(s, at);
  std::size_t i = at + 1 + record_name_.size();
  std::size_t count = 0;
  std::size_t expected = 0;  // the field after the last one: attributes come in order mostly
  for (;;) {
    std::size_t next = s.skip_space(i);
    char c = s.at(next, "'/>' or '>' ending the start tag");
    if (c == '/' || c == '>') {
      if (count != field_names_.size()) refuse_missing(next, seen, stamp);
      if (c == '/') return s.expect(next + 1, '>', "'>' after '/'");
      return record_content(s, next + 1, true);
    }
    if (next == i) s.refuse(i, "whitespace, '/>' or '>' in the start tag");
    std::size_t name_end = s.name_end(next, "an attribute name");
    std::string_view name = text.substr(next, name_end - next);
    std::size_t field = field_of(name, expected);
    if (field == record_encoder::npos)
      throw text_error(next, "unknown attribute '" + std::string(name) +
                                 "': the schema has no such field (an extra field)");
    if (seen[field] == stamp)
      throw text_error(next, "attribute '" + std::string(name) + "' given twice");
    seen[field] = stamp;
    ++count;
    expected = field + 1;
    std::size_t quote =
        s.skip_space(s.expect(s.skip_space(name_end), '=', "'=' after an attribute name"));
    xml::quoted_value value = s.quoted(quote, true);
    store(s, field, value, out, decoded);
    i = value.after;
  }
}

std::size_t xml_parser::field_of(std::string_view name, std::size_t expected) const noexcept {
  if (expected < field_names_.size() && xml::same_name(field_names_[expected], name))
    return expected;
  return encoder_.find(name);
}

void xml_parser::store(const scanner& s, std::size_t field, const xml::quoted_value& value,
                       unsigned char* out, std::string& decoded) const {
  if (!value.needs_decoding)
    return encoder_.encode(field, s.text().substr(value.begin, value.end - value.begin),
                           value.begin, out);
  s.decode(value, decoded);
  encoder_.encode(field, decoded, value.begin, out);
}

void xml_parser::refuse_missing(std::size_t at, const std::vector<std::size_t>& seen,
                                std::size_t stamp) const {
  std::size_t field = 0;
  while (seen[field] == stamp) ++field;
  throw text_error(at, "missing attribute '" + std::string(field_names_[field]) + "' for " +
                           encoder_.describe(field) + ": the start tag ends without it");
}

}  // namespace text2bin
