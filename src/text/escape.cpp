// The escaping writers of <sluice/escape.hpp>: a table says which bytes need
// a look; the runs between them are copied in one piece.
#include "sluice/escape.hpp"

#include <array>
#include <cstddef>

#include "text/utf8.hpp"

namespace sluice {
namespace {

using byte_table = std::array<bool, 256>;

constexpr std::string_view replacement = "\xEF\xBF\xBD";  // U+FFFD

// True for the control characters, the bytes above 0x7F and `specials`.
constexpr byte_table needing_a_look(std::string_view specials) {
  byte_table table{};
  for (std::size_t c = 0; c < 256; ++c) table[c] = c < 0x20 || c >= 0x80;
  for (char c : specials) table[static_cast<unsigned char>(c)] = true;
  return table;
}

constexpr byte_table xml_text_table = needing_a_look("&<>");
constexpr byte_table xml_attribute_table = needing_a_look("&<>\"'");
constexpr byte_table json_table = needing_a_look("\"\\");

// U+FFFE and U+FFFF, which XML does not allow even though they are valid UTF-8.
bool is_xml_noncharacter(const unsigned char* text, std::size_t length) noexcept {
  return length == 3 && text[0] == 0xEF && text[1] == 0xBF && text[2] >= 0xBE;
}

// Copies `text` to `out`, handing each ASCII byte the table marks to
// `escape` and replacing what is not valid UTF-8 (or, for XML, not a
// character XML allows) with U+FFFD.
template <class Escape>
void escape_utf8(writer& out, std::string_view text, const byte_table& table, bool xml,
                 Escape escape) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  std::size_t size = text.size(), start = 0, i = 0;
  while (i < size) {
    unsigned char c = bytes[i];
    if (!table[c]) {
      ++i;
      continue;
    }
    if (c >= 0x80) {
      auto sequence = detail::next_utf8(bytes + i, size - i);
      bool allowed = sequence.valid && !(xml && is_xml_noncharacter(bytes + i, sequence.length));
      i += sequence.length;
      if (allowed) continue;
      out.write(text.substr(start, i - sequence.length - start));
      out.write(replacement);
    } else {
      out.write(text.substr(start, i - start));
      escape(out, static_cast<char>(c));
      ++i;
    }
    start = i;
  }
  out.write(text.substr(start));
}

// The ASCII escapes shared by XML text and attributes.
void escape_xml_common(writer& out, char c) {
  switch (c) {
    case '&': return out.write("&amp;");
    case '<': return out.write("&lt;");
    case '>': return out.write("&gt;");
    case '\r': return out.write("&#13;");
    case '\t':
    case '\n': return out.put(c);
    default: return out.write(replacement);  // a control XML 1.0 cannot carry
  }
}

void escape_xml_attribute(writer& out, char c) {
  switch (c) {
    case '"': return out.write("&quot;");
    case '\'': return out.write("&apos;");
    case '\t': return out.write("&#9;");
    case '\n': return out.write("&#10;");
    default: return escape_xml_common(out, c);
  }
}

void escape_json(writer& out, char c) {
  switch (c) {
    case '"': return out.write("\\\"");
    case '\\': return out.write("\\\\");
    case '\b': return out.write("\\b");
    case '\f': return out.write("\\f");
    case '\n': return out.write("\\n");
    case '\r': return out.write("\\r");
    case '\t': return out.write("\\t");
    default: break;
  }
  char unicode[] = {
      '\\', 'u', '0', '0', "0123456789abcdef"[(c >> 4) & 0xF], "0123456789abcdef"[c & 0xF]};
  out.write(std::string_view(unicode, sizeof unicode));
}

}  // namespace

void write_xml_text(writer& out, std::string_view text) {
  escape_utf8(out, text, xml_text_table, true, escape_xml_common);
}

void write_xml_attribute(writer& out, std::string_view text) {
  escape_utf8(out, text, xml_attribute_table, true, escape_xml_attribute);
}

void write_json_string(writer& out, std::string_view text) {
  out.put('"');
  escape_utf8(out, text, json_table, false, escape_json);
  out.put('"');
}

void write_csv_field(writer& out, std::string_view text, char separator) {
  const char specials[] = {separator, '"', '\n', '\r'};
  if (text.find_first_of(std::string_view(specials, sizeof specials)) == std::string_view::npos)
    return out.write(text);
  out.put('"');
  for (std::size_t quote; (quote = text.find('"')) != std::string_view::npos;) {
    out.write(text.substr(0, quote + 1));
    out.put('"');
    text.remove_prefix(quote + 1);
  }
  out.write(text);
  out.put('"');
}

}  // namespace sluice
