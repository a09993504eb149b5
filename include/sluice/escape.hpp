// sluice/escape.hpp - text escaped for XML, JSON and CSV, written straight
// into a writer.
//
// Each call scans its input once: runs that need no escaping are copied into
// the writer's buffer in one piece (writer::write), and only the bytes that
// need it are replaced. No allocation, no temporary string. Errors are the
// writer's (see <sluice/writer.hpp>): these calls throw what writer::write
// throws, and nothing else.
//
// Input is UTF-8. XML and JSON cannot carry invalid UTF-8, so every ill-formed
// sequence becomes U+FFFD (the replacement character, bytes EF BF BD), one per
// "maximal subpart" as Unicode recommends: the bytes that could still have
// begun a valid sequence are replaced together, any other byte alone. This is
// what Python's bytes.decode("utf-8", errors="replace") and the WHATWG
// decoder do. CSV is bytes: it passes every byte through unchanged.
//
// Example:
//   sluice::writer out("rows.xml");
//   out.write("<row name=\"");
//   sluice::write_xml_attribute(out, name);   // a"b -> a&quot;b
//   out.write("\">");
//   sluice::write_xml_text(out, comment);     // x<y -> x&lt;y
//   out.write("</row>\n");
//   sluice::write_json_string(out, name);     // "a\"b", with the quotes
//   sluice::write_csv_field(out, name);       // "a""b", quoted as RFC 4180 says
#pragma once

#include <string_view>

#include "sluice/writer.hpp"

namespace sluice {

// Character data for between XML tags: & < > become &amp; &lt; &gt; (so "]]>"
// never appears), a carriage return becomes &#13; (a parser would turn a raw
// one into a line feed); tab and line feed pass. The control characters
// XML 1.0 cannot carry at all, even as references (U+0000-U+001F but tab,
// line feed and carriage return; U+FFFE, U+FFFF), become U+FFFD, as invalid
// UTF-8 does.
void write_xml_text(writer& out, std::string_view text);

// An XML attribute value, without its quotes (either kind may surround it):
// as write_xml_text, and also " ' tab line-feed carriage-return become
// &quot; &apos; &#9; &#10; &#13;, so that a parser's attribute normalization
// gives back exactly the text.
void write_xml_attribute(writer& out, std::string_view text);

// A JSON string with its surrounding quotes (RFC 8259): " and \ are
// backslash-escaped, control characters U+0000-U+001F become \b \f \n \r \t or
// \u00XX, valid UTF-8 passes unchanged (U+007F and U+2028 included),
// invalid UTF-8 becomes U+FFFD.
void write_json_string(writer& out, std::string_view text);

// One CSV field (RFC 4180), without its separator: a field holding the
// separator, a double quote, a line feed or a carriage return is written
// between double quotes, its quotes doubled; any other is written as is (an
// empty field too: nothing). Bytes pass unchanged, whatever their encoding.
void write_csv_field(writer& out, std::string_view text, char separator = ',');

}  // namespace sluice
