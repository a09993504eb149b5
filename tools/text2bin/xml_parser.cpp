#include "text2bin/xml_parser.hpp"

#include <algorithm>

#include "text2bin/text_error.hpp"
#include "text2bin/xml_scanner.hpp"

namespace text2bin {
namespace {

using xml::scanner;

bool equal_ignoring_case(std::string_view a, std::string_view b) noexcept {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return (x >= 'A' && x <= 'Z' ? x | 0x20 : x) == (y >= 'A' && y <= 'Z' ? y | 0x20 : y);
         });
}

// Reads `name = "value"` at `at` (spaces around '=' allowed); sets `name`
// and `value`; returns the position after the closing quote.
std::size_t attribute(const scanner& s, std::size_t at, std::string_view& name,
                      xml::quoted_value& value) {
  std::size_t name_end = s.name_end(at, "an attribute name");
  name = s.text().substr(at, name_end - at);
  std::size_t quote =
      s.skip_space(s.expect(s.skip_space(name_end), '=', "'=' after an attribute name"));
  value = s.quoted(quote, true);
  return value.after;
}

}  // namespace

std::unique_ptr<format_parser> make_xml_parser(const job& work, const record_encoder& encoder) {
  return std::make_unique<xml_parser>(work.record_element, encoder);
}

xml_parser::xml_parser(std::string record_element, const record_encoder& encoder)
    : encoder_(encoder),
      record_name_(std::move(record_element)),
      element_("a <" + record_name_ + "> element") {
  for (const auto& f : encoder.layout().fields) field_names_.push_back(f.name);
}

std::optional<std::size_t> xml_parser::read_head(std::string_view text, bool at_end) {
  if (text.size() < 3 && !at_end) return std::nullopt;
  scanner s(text, at_end);
  try {
    std::size_t at = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;  // a byte order mark
    std::string_view rest = text.substr(at, 6);
    if (!at_end && rest.size() < 6 && std::string_view("<?xml").starts_with(rest.substr(0, 5)))
      return std::nullopt;  // a declaration may start here
    if (rest.starts_with("<?xml") && rest.size() == 6 && scanner::is_space(rest[5]))
      at = declaration(s, at);
    at = s.skip_misc(at, true, false, "the document element");
    if (at < text.size() && s.starts(at, "<!DOCTYPE"))
      at = s.skip_misc(doctype(s, at), true, false, "the document element");
    return document_start(s, at);
  } catch (const xml::more_needed&) {
    return std::nullopt;
  }
}

std::size_t xml_parser::declaration(const scanner& s, std::size_t at) const {
  bool first = true;
  for (at += 5;; first = false) {
    std::size_t name_at = s.skip_space(at);
    if (s.starts(name_at, "?>")) {
      if (first) s.refuse(name_at, "version=\"1.0\" in the XML declaration");
      return name_at + 2;
    }
    if (name_at == at) s.refuse(at, "whitespace or '?>' in the XML declaration");
    std::string_view name;
    xml::quoted_value value;
    at = attribute(s, name_at, name, value);
    std::string_view text = s.text().substr(value.begin, value.end - value.begin);
    if (first != (name == "version"))
      throw text_error(name_at, first ? "expected version=\"1.0\" first in the XML declaration"
                                      : "version=\"...\" given twice in the XML declaration");
    if (name == "version" && !text.starts_with("1."))
      throw text_error(value.begin,
                       "XML version '" + std::string(text) + "' is not read: expected 1.0");
    if (name == "encoding" && !equal_ignoring_case(text, "UTF-8") &&
        !equal_ignoring_case(text, "US-ASCII"))
      throw text_error(value.begin,
                       "encoding '" + std::string(text) + "' is not read: expected UTF-8");
    if (name != "version" && name != "encoding" && name != "standalone")
      throw text_error(name_at,
                       "expected encoding, standalone or '?>' in the XML declaration, "
                       "found '" +
                           std::string(name) + "'");
  }
}

std::size_t xml_parser::doctype(const scanner& s, std::size_t at) const {
  at += 9;
  if (!scanner::is_space(s.at(at, "whitespace after '<!DOCTYPE'")))
    s.refuse(at, "whitespace after '<!DOCTYPE'");
  at = s.name_end(s.skip_space(at), "the doctype's name");
  for (;;) {
    at = s.skip_space(at);
    char c = s.at(at, "'>' ending the doctype");
    if (c == '>') return at + 1;
    if (c == '[')
      throw text_error(at,
                       "a doctype's internal subset ('[...]') is refused: the entities it "
                       "may declare are not expanded");
    at = c == '"' || c == '\'' ? s.quoted(at, true).after
                               : s.name_end(at, "SYSTEM, PUBLIC, a quoted identifier or '>'");
  }
}

std::size_t xml_parser::document_start(const scanner& s, std::size_t at) {
  at = s.expect(at, '<', "the document element");
  std::size_t name_end = s.name_end(at, "the document element's name");
  std::string name(s.text().substr(at, name_end - at));
  std::vector<std::string_view> seen;
  for (at = name_end;;) {
    std::size_t next = s.skip_space(at);
    char c = s.at(next, "'>' ending the document element's start tag");
    if (c == '/' || c == '>') {
      bool closed = c == '/';
      if (closed) s.expect(next + 1, '>', "'>' after '/'");
      document_name_ = std::move(name);
      document_closed_ = closed;
      return next + (closed ? 2 : 1);
    }
    if (next == at) s.refuse(at, "whitespace, '>' or '/>' in the start tag");
    std::string_view attribute_name;
    xml::quoted_value value;
    at = attribute(s, next, attribute_name, value);
    if (std::find(seen.begin(), seen.end(), attribute_name) != seen.end())
      throw text_error(next, "attribute '" + std::string(attribute_name) + "' given twice");
    seen.push_back(attribute_name);
    std::string decoded;
    if (value.needs_decoding) s.decode(value, decoded);
  }
}

std::size_t xml_parser::end_tag(const scanner& s, std::size_t at, std::string_view name) const {
  std::size_t name_at = at + 2;
  std::size_t name_end = s.name_end(name_at, "an end tag's name");
  std::string_view found = s.text().substr(name_at, name_end - name_at);
  if (found != name)
    throw text_error(
        at, "expected '</" + std::string(name) + ">', found '</" + std::string(found) + ">'");
  return s.expect(s.skip_space(name_end), '>', "'>' ending the end tag");
}

std::size_t xml_parser::document_end(const scanner& s, std::size_t at) const {
  at = s.skip_misc(end_tag(s, at, document_name_), true, false, misc_);
  if (at != s.size()) s.refuse(at, misc_ + " after '</" + document_name_ + ">'");
  return at;
}

void xml_parser::check_element(const scanner& s, std::size_t at) const {
  std::string_view text = s.text();
  std::size_t end = at + 1 + record_name_.size();
  if (end < text.size() && xml::same_name(text.substr(at + 1, record_name_.size()), record_name_) &&
      (scanner::is_space(text[end]) || text[end] == '/' || text[end] == '>'))
    return;
  std::size_t name_end = s.name_end(at + 1, "an element name");
  std::string_view name = text.substr(at + 1, name_end - at - 1);
  if (name == record_name_) return;
  throw text_error(at, "expected " + element_ + ", found <" + std::string(name) + ">");
}

std::size_t xml_parser::whole_records(std::string_view text, bool at_end) const {
  if (at_end) return text.size();
  if (document_closed_) return 0;  // nothing but the document's end remains
  scanner s(text, false);
  std::size_t cut = 0;
  try {
    for (std::size_t at = 0;;) {
      at = cut = s.skip_space(at);
      if (at == text.size()) return cut;
      if (text[at] != '<') s.refuse(at, element_ + " or whitespace");
      char next = s.at(at + 1, element_);
      if (next == '/') {
        document_end(s, at);  // throws unless only misc follows, as it must
        return cut;
      }
      std::size_t after = s.skip_markup(at, false, true, element_);
      if (after == at && next == '!') s.refuse(at, element_ + ", a comment or a CDATA section");
      at = after != at ? after : skim_record(s, at);
    }
  } catch (const xml::more_needed&) {
    return cut;
  }
}

std::size_t xml_parser::skim_record(const scanner& s, std::size_t at) const {
  check_element(s, at);
  std::size_t i = s.tag_end(at + 1 + record_name_.size());
  for (i = i != std::string_view::npos ? i : at + 1 + record_name_.size();;) {
    i = s.tag_stop(i);
    char c = s.at(i, "'>' ending the start tag");
    if (c == '>') break;
    if (c == '<') s.refuse(i, "'>' ending the start tag");
    i = s.quoted(i, false).after;
  }
  return s.text()[i - 1] == '/' ? i + 1 : record_content(s, i + 1, false);
}

std::size_t xml_parser::record_content(const scanner& s, std::size_t at, bool check) const {
  std::string closing = "'</" + record_name_ + ">'";
  at = s.skip_misc(at, check, true, closing);
  if (!s.starts(at, "</")) s.refuse(at, closing + " (a record element holds no other content)");
  return end_tag(s, at, record_name_);
}

}  // namespace text2bin
