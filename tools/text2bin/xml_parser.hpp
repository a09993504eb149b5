// sluice-text2bin's XML format: a document whose element holds one element
// per record, its fields as attributes, as sluice-bin2text writes it
//   <?xml version="1.0" encoding="UTF-8"?>
//   <records>
//   <record id="7" x="0.25"/>
//   </records>
// and as other producers do: attributes in any order and either quote,
// entities and character references, comments, processing instructions,
// CDATA sections of whitespace, a doctype without an internal subset, any
// document element name, <record ...></record> with only comments or
// whitespace inside.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "text2bin/convert.hpp"
#include "text2bin/format_parser.hpp"
#include "text2bin/record_encoder.hpp"

namespace text2bin {

namespace xml {
class scanner;
struct quoted_value;
}  // namespace xml

// The XML parser for `work` (its record_element names a record's element),
// storing fields through `encoder`, which must outlive it. Throws nothing.
std::unique_ptr<format_parser> make_xml_parser(const job& work, const record_encoder& encoder);

// The parser behind make_xml_parser. A record's attributes are read in one
// pass; each value is given to the encoder as it stands in the text when it
// holds no reference (the usual case: no copy), decoded first otherwise.
class xml_parser final : public format_parser {
 public:
  xml_parser(std::string record_element, const record_encoder& encoder);

  // The declaration (version 1.x, encoding UTF-8 or US-ASCII), comments,
  // processing instructions, a doctype without an internal subset, and the
  // document element's start tag, whose name it keeps.
  std::optional<std::size_t> read_head(std::string_view text, bool at_end) override;

  // After the last whole record element, comment, processing instruction
  // or whitespace, never past the document element's end tag. Throws at
  // what cannot be records whatever follows: an element of another name, a
  // '<' inside a tag's value, a mismatched end tag, text.
  std::size_t whole_records(std::string_view text, bool at_end) const override;

  // The records; with `last`, the document element's end tag and nothing
  // after it but comments, processing instructions and whitespace.
  void parse(std::string_view piece, bool last, std::vector<unsigned char>& out) const override;

 private:
  std::size_t declaration(const xml::scanner& s, std::size_t at) const;
  std::size_t doctype(const xml::scanner& s, std::size_t at) const;
  std::size_t document_start(const xml::scanner& s, std::size_t at);
  std::size_t end_tag(const xml::scanner& s, std::size_t at, std::string_view name) const;
  std::size_t document_end(const xml::scanner& s, std::size_t at) const;
  void check_element(const xml::scanner& s, std::size_t at) const;
  std::size_t skim_record(const xml::scanner& s, std::size_t at) const;
  std::size_t record(const xml::scanner& s, std::size_t at, unsigned char* out,
                     std::vector<std::size_t>& seen, std::size_t stamp, std::string& decoded) const;
  std::size_t field_of(std::string_view name, std::size_t expected) const noexcept;
  void store(const xml::scanner& s, std::size_t field, const xml::quoted_value& value,
             unsigned char* out, std::string& decoded) const;
  void refuse_missing(std::size_t at, const std::vector<std::size_t>& seen,
                      std::size_t stamp) const;
  std::size_t record_content(const xml::scanner& s, std::size_t at, bool check) const;

  const record_encoder& encoder_;
  std::string record_name_;
  std::string element_;                        // "a <record> element", as messages name it
  std::vector<std::string_view> field_names_;  // the encoder's, in schema order
  std::string document_name_;                  // read_head's
  bool document_closed_ = false;               // <records/>: an empty document
  std::string misc_ = "only comments, processing instructions or whitespace";
};

}  // namespace text2bin
