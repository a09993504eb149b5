// sluice-text2bin's XML parser (tools/text2bin/xml_*): sluice-bin2text's
// XML back to the same bytes, what other producers write (Python's
// xml.etree among them), every refusal at its byte, and where whole_records
// cuts.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "bin2text/record_text.hpp"
#include "common/schema.hpp"
#include "support/test_support.hpp"
#include "text2bin/record_encoder.hpp"
#include "text2bin/text_error.hpp"
#include "text2bin/xml_parser.hpp"

namespace {

using text2bin::record_encoder;
using text2bin::text_error;

constexpr const char* every_type = "a:i8,b:u8,c:i16,d:u16,e:i32,f:u32,g:i64,h:u64,x:f32,y:f64";
constexpr const char* xml_head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<records>\n";

// A parser for `schema` with its encoder, and the whole conversion of a
// document: the head, then pieces cut by whole_records from stretches of
// at most `stretch` bytes, the last with the document's end.
struct xml_reader {
  explicit xml_reader(const char* schema, std::string record_element = "record",
                      bool big_endian = false)
      : encoder(sluice_tools::parse_schema(schema), big_endian) {
    text2bin::job work;
    work.record_element = std::move(record_element);
    parser = text2bin::make_xml_parser(work, encoder);
  }

  std::vector<unsigned char> convert(std::string_view text, std::size_t stretch = 1 << 20) {
    std::size_t head = 0;
    for (std::size_t n = 1;; n = std::min(2 * n, text.size())) {  // the head, grown until read
      auto taken = parser->read_head(text.substr(0, n), n == text.size());
      if (taken) {
        head = *taken;
        break;
      }
    }
    std::vector<unsigned char> out;
    std::string_view rest = text.substr(head);
    std::size_t offset = head;
    while (true) {
      std::size_t length = std::min(stretch, rest.size());
      bool at_end = length == rest.size();
      try {
        std::size_t cut = parser->whole_records(rest.substr(0, length), at_end);
        while (cut == 0 && !at_end) {  // no whole record yet: a longer stretch
          length = std::min(2 * length, rest.size());
          at_end = length == rest.size();
          cut = parser->whole_records(rest.substr(0, length), at_end);
        }
        parser->parse(rest.substr(0, cut), at_end, out);
        rest.remove_prefix(cut);
        offset += cut;
      } catch (const text_error& e) {
        throw text_error(offset + e.at(), e.what());  // at the document's byte
      }
      if (at_end) return out;
    }
  }

  record_encoder encoder;
  std::unique_ptr<text2bin::format_parser> parser;
};

// Records as sluice-bin2text writes them, in its XML.
std::string bin2text_xml(const char* schema, const std::vector<unsigned char>& records,
                         bool big_endian = false) {
  auto layout = sluice_tools::parse_schema(schema);
  bin2text::record_text text(layout, sluice_tools::format::xml, big_endian);
  std::string xml = xml_head;
  std::vector<char> line(text.max_size());
  for (std::size_t at = 0; at < records.size(); at += layout.record_size)
    xml.append(line.data(), text.write(line.data(), records.data() + at));
  return xml + "</records>\n";
}

template <class T>
void append(std::vector<unsigned char>& bytes, T value) {
  auto at = bytes.size();
  bytes.resize(at + sizeof value);
  std::memcpy(bytes.data() + at, &value, sizeof value);
}

// Records of every type holding its extremes: integer limits, ±0,
// subnormals, the largest finite values, infinities, NaN of either sign,
// shortest floats, then random bit patterns.
std::vector<unsigned char> extreme_records() {
  using std::numeric_limits;
  std::vector<unsigned char> bytes;
  float floats[] = {0.0f,
                    -0.0f,
                    numeric_limits<float>::denorm_min(),
                    -numeric_limits<float>::denorm_min(),
                    numeric_limits<float>::min(),
                    numeric_limits<float>::max(),
                    -numeric_limits<float>::infinity(),
                    numeric_limits<float>::infinity(),
                    numeric_limits<float>::quiet_NaN(),
                    -numeric_limits<float>::quiet_NaN(),
                    0.1f,
                    1e-7f,
                    16777217.0f};
  double doubles[] = {-0.0,
                      0.0,
                      numeric_limits<double>::denorm_min(),
                      -numeric_limits<double>::denorm_min(),
                      numeric_limits<double>::min(),
                      -numeric_limits<double>::max(),
                      numeric_limits<double>::infinity(),
                      -numeric_limits<double>::infinity(),
                      -numeric_limits<double>::quiet_NaN(),
                      numeric_limits<double>::quiet_NaN(),
                      0.1,
                      5e-324 * 3,
                      9007199254740993.0};
  for (std::size_t i = 0; i < std::size(floats); ++i) {
    bool low = i % 2 == 0;
    append<std::int8_t>(bytes, low ? numeric_limits<std::int8_t>::min() : 127);
    append<std::uint8_t>(bytes, low ? 0 : 255);
    append<std::int16_t>(bytes, low ? numeric_limits<std::int16_t>::min() : 32767);
    append<std::uint16_t>(bytes, low ? 0 : 65535);
    append<std::int32_t>(bytes, low ? numeric_limits<std::int32_t>::min() : -1);
    append<std::uint32_t>(bytes, low ? 0 : numeric_limits<std::uint32_t>::max());
    append<std::int64_t>(
        bytes, low ? numeric_limits<std::int64_t>::min() : numeric_limits<std::int64_t>::max());
    append<std::uint64_t>(bytes, low ? 0 : numeric_limits<std::uint64_t>::max());
    append(bytes, floats[i]);
    append(bytes, doubles[i]);
  }
  std::mt19937_64 random(20);
  for (int n = 0; n < 500; ++n) {  // 42 random bytes: NaNs with payloads among the floats
    for (int i = 0; i < 6; ++i) append(bytes, random());
    bytes.resize(bytes.size() - 6);
  }
  return bytes;
}

// The NaN at `at`, a float or double in the records' byte order, made the
// quiet NaN of its sign, as it reads back from bin2text's "nan" or "-nan"
// (a payload cannot round-trip).
template <class T>
void quiet_nan(unsigned char* at, bool big_endian) {
  unsigned char bytes[sizeof(T)];
  for (std::size_t i = 0; i < sizeof(T); ++i) bytes[i] = at[big_endian ? sizeof(T) - 1 - i : i];
  T value;
  std::memcpy(&value, bytes, sizeof value);  // a little-endian host, as the tests assume
  if (!std::isnan(value)) return;
  value = std::copysign(std::numeric_limits<T>::quiet_NaN(), value);
  std::memcpy(bytes, &value, sizeof value);
  for (std::size_t i = 0; i < sizeof(T); ++i) at[big_endian ? sizeof(T) - 1 - i : i] = bytes[i];
}

// `bytes` (records of every_type) with each NaN made the quiet one.
std::vector<unsigned char> quiet_nans(std::vector<unsigned char> bytes, bool big_endian) {
  for (std::size_t at = 0; at < bytes.size(); at += 42) {
    quiet_nan<float>(&bytes[at + 30], big_endian);
    quiet_nan<double>(&bytes[at + 34], big_endian);
  }
  return bytes;
}

TEST(text2bin_xml, bin2text_output_of_every_type_and_extreme_reads_back_exactly) {
  auto records = extreme_records();
  ASSERT_EQ(records.size() % 42, 0u);
  for (bool big : {false, true}) {
    xml_reader reader(every_type, "record", big);
    std::string xml = bin2text_xml(every_type, records, big);
    auto expected = quiet_nans(records, big);
    for (std::size_t stretch : {1u << 20, 4096u, 97u, 7u}) {
      auto back = reader.convert(xml, stretch);
      ASSERT_EQ(back.size(), expected.size());
      auto differs = std::mismatch(back.begin(), back.end(), expected.begin()).first - back.begin();
      EXPECT_EQ(differs, back.end() - back.begin())
          << "record " << differs / 42 << ", byte " << differs % 42 << ", stretch " << stretch;
    }
  }
}

// The one record {id, x} of schema "id:i32,x:f64", as bytes.
std::vector<unsigned char> id_x(std::int32_t id, double x) {
  std::vector<unsigned char> bytes;
  append(bytes, id);
  append(bytes, x);
  return bytes;
}

std::vector<unsigned char> joined(std::initializer_list<std::vector<unsigned char>> parts) {
  std::vector<unsigned char> all;
  for (const auto& part : parts) all.insert(all.end(), part.begin(), part.end());
  return all;
}

TEST(text2bin_xml, reads_what_other_producers_write) {
  struct variant {
    const char* name;
    std::string xml;
  };
  const std::vector<variant> variants = {
      {"attribute order and single quotes",
       "<records><record x='0.5' id='7'/><record id=\"8\" x='-1e3'/></records>"},
      {"spaces around '=' and in the tags",
       "<records >\n  <record\tid = \"7\"\n x= '0.5' />\n<record id=\"8\" x=\"-1e3\"  /></records "
       ">"},
      {"entities and character references",
       "<records><record id=\"&#55;\" x=\"&#x30;&#46;5\"/><record id='&#x38;' x=\"-1e&#51;\"/>"
       "</records>"},
      {"comments, processing instructions, CDATA between records",
       "<!-- a <comment> --><?app data?>\n<records a=\"&lt;x&gt;\" b='&amp;&quot;&apos;'>"
       "<!-- -> --><record id=\"7\" x=\"0.5\"/><?pi ?><![CDATA[ \n ]]><record id=\"8\" "
       "x=\"-1e3\"/><!----></records><!-- end --><?end?>\n"},
      {"a doctype and a declaration with standalone",
       "\xEF\xBB\xBF<?xml version='1.1' encoding='utf-8' standalone='yes' ?>\n<!DOCTYPE records "
       "SYSTEM \"records.dtd\">\n<records><record id=\"7\" x=\"0.5\"/><record id=\"8\" "
       "x=\"-1e3\"/></records>"},
      {"CRLF line ends",
       "<?xml version=\"1.0\"?>\r\n<records>\r\n<record id=\"7\"\r\n x=\"0.5\"/>\r\n<record "
       "id=\"8\" x=\"-1e3\"/>\r\n</records>\r\n"},
      {"values longer than the scanner's blocks of 16 bytes",
       "<records><record id=\"0000000000000000000000000000000000000007\" "
       "x=\"0.500000000000000000000000000000000000000000000\"/><record id='00000000000000008' "
       "x='-1000.0000000000000000000000000000'/></records>"},
      {"the open and close form",
       "<data><record id=\"7\" x=\"0.5\"></record><record id=\"8\" x=\"-1e3\">\n <!-- c --> "
       "<?p?></record ></data>"},
  };
  auto expected = joined({id_x(7, 0.5), id_x(8, -1e3)});
  for (const auto& v : variants) {
    for (std::size_t stretch : {1u << 20, 5u, 1u}) {
      xml_reader reader("id:i32,x:f64");
      try {
        EXPECT_EQ(reader.convert(v.xml, stretch), expected) << v.name << ", stretch " << stretch;
      } catch (const text_error& e) {
        ADD_FAILURE() << v.name << ": at " << e.at() << ": " << e.what();
      }
    }
  }
}

TEST(text2bin_xml, record_element_is_an_option) {
  xml_reader reader("id:i32,x:f64", "point");
  EXPECT_EQ(
      reader.convert("<points><point id=\"7\" x=\"0.5\"/>\n<point id=\"8\" x=\"-1e3\"/></points>"),
      joined({id_x(7, 0.5), id_x(8, -1e3)}));
}

TEST(text2bin_xml, empty_documents_have_no_records) {
  for (const char* xml : {"<records/>", "<records></records>", "<r/>\n<!-- c -->\n",
                          "<?xml version=\"1.0\"?><records>\n</records>"}) {
    xml_reader reader("id:i32,x:f64");
    EXPECT_TRUE(reader.convert(xml).empty()) << xml;
  }
}

// The error converting `xml` (a whole document) with schema "id:i32,x:f64"
// raises: "<at>: <message>", or "no error".
std::string error_of(const std::string& xml, const char* record_element = "record") {
  xml_reader reader("id:i32,x:f64", record_element);
  try {
    reader.convert(xml, 16);
  } catch (const text_error& e) {
    return std::to_string(e.at()) + ": " + e.what();
  }
  return "no error";
}

TEST(text2bin_xml, refuses_bad_records_at_their_byte) {
  const std::string r = "<r>\n";  // 4 bytes: records start at 4
  EXPECT_EQ(error_of(r + "<record id=\"1\" x=\"2\" z=\"3\"/></r>"),
            "25: unknown attribute 'z': the schema has no such field (an extra field)");
  EXPECT_EQ(error_of(r + "<record id=\"1\"/></r>"),
            "18: missing attribute 'x' for field 'x' (f64): the start tag ends without it");
  EXPECT_EQ(error_of(r + "<record id=\"1\" x=\"2\" id=\"3\"/></r>"),
            "25: attribute 'id' given twice");
  EXPECT_EQ(error_of(r + "<record id=\"1\" x=\"2.5.\"/></r>"),
            "22: expected a number for field 'x' (f64), found \"2.5.\"");
  EXPECT_EQ(error_of(r + "<record id=\"3000000000\" x=\"2\"/></r>"),
            "16: field 'id' (i32) out of range: \"3000000000\"");
  EXPECT_EQ(error_of(r + "<point id=\"1\" x=\"2\"/></r>"),
            "4: expected a <record> element, found <point>");
  EXPECT_EQ(error_of(r + "<record id=\"1\" x=\"2\"/>\nabc</r>"),
            "27: expected a <record> element or whitespace, found 'a'");
  EXPECT_EQ(error_of(r + "<record id=\"1\" x=\"2\"/><![CDATA[ x ]]></r>"),
            "36: expected a <record> element, found text in a CDATA section");
  EXPECT_EQ(error_of(r + "<record id=\"1\" x=\"2\">x</record></r>"),
            "25: expected '</record>' (a record element holds no other content), found 'x'");
  EXPECT_EQ(error_of(r + "<record id=\"1\" x=\"2\"></rec></r>"),
            "25: expected '</record>', found '</rec>'");
  EXPECT_EQ(error_of(r + "<record id=\"1\" x=\"2\"/>"),
            "26: expected '</r>' ending the document, found the end of the input");
  EXPECT_EQ(error_of(r + "<record id=\"1\" x=\"2\"/></s>"), "26: expected '</r>', found '</s>'");
  EXPECT_EQ(error_of(r + "<record id=\"1\" x=\"2\"/></r><r/>"),
            "30: expected only comments, processing instructions or whitespace after '</r>', "
            "found '<'");
  EXPECT_EQ(error_of(r + "<record id=\"1\" x=\"2\"/></r>x"),
            "30: expected only comments, processing instructions or whitespace after '</r>', "
            "found 'x'");
}

TEST(text2bin_xml, refuses_malformed_xml_at_its_byte) {
  const std::string r = "<r>\n";
  EXPECT_EQ(error_of(r + "<record id=\"1\" x=\"2\"></r>"),
            "25: expected '</record>', found '</r>'");
  EXPECT_EQ(error_of(r + "<record id=\"1\"x=\"2\"/></r>"),
            "18: expected whitespace, '/>' or '>' in the start tag, found 'x'");
  EXPECT_EQ(error_of(r + "<record id=1 x=\"2\"/></r>"),
            "15: expected '\"' or ''' opening a value, found '1'");
  EXPECT_EQ(error_of(r + "<record id=\"1\" x=\"2/></r>"),
            "25: '<' is not allowed in an attribute value: expected '&lt;'");
  EXPECT_EQ(error_of(r + "<record id \"1\" x=\"2\"/></r>"),
            "15: expected '=' after an attribute name, found '\"'");
  EXPECT_EQ(error_of(r + "<record id=\"1\" x=\"2\"></r"), "25: expected '</record>', found '</r>'");
  EXPECT_EQ(error_of(r + "<!-- a -- b --></r>"), "11: '--' is not allowed inside a comment");
  EXPECT_EQ(error_of(r + "<!DOCTYPE r></r>"),
            "4: expected a <record> element, a comment or a CDATA section, found '<'");
  EXPECT_EQ(error_of(r + "<?xml version=\"1.0\"?></r>"),
            "4: the XML declaration '<?xml ...?>' is only allowed at the very start");
  EXPECT_EQ(error_of(" <?xml version=\"1.0\"?><r/>"),
            "1: the XML declaration '<?xml ...?>' is only allowed at the very start");
  EXPECT_EQ(error_of("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r/>"),
            "30: encoding 'ISO-8859-1' is not read: expected UTF-8");
  EXPECT_EQ(error_of("<?xml encoding=\"UTF-8\"?><r/>"),
            "6: expected version=\"1.0\" first in the XML declaration");
  EXPECT_EQ(error_of("<!DOCTYPE r [<!ENTITY e \"x\">]><r/>"),
            "12: a doctype's internal subset ('[...]') is refused: the entities it may declare "
            "are not expanded");
  EXPECT_EQ(error_of("<r a=\"1\" a=\"2\"/>"), "9: attribute 'a' given twice");
  EXPECT_EQ(error_of("<r"),
            "2: expected '>' ending the document element's start tag, found "
            "the end of the input");
  EXPECT_EQ(error_of(""), "0: expected the document element, found the end of the input");
  EXPECT_EQ(error_of("text"), "0: expected the document element, found 't'");
}

TEST(text2bin_xml, refuses_bad_references_and_characters) {
  const std::string r = "<r>\n";
  EXPECT_EQ(error_of(r + "<record id=\"&one;\" x=\"2\"/></r>"),
            "16: unknown entity '&one;': expected &lt; &gt; &amp; &quot; &apos; or a character "
            "reference (no doctype declares others)");
  EXPECT_EQ(error_of(r + "<record id=\"1\" x=\"&#0;\"/></r>"),
            "22: character reference '&#0;' is not to an XML character");
  EXPECT_EQ(error_of(r + "<record id=\"1\" x=\"&#xD800;\"/></r>"),
            "22: character reference '&#xD800;' is not to an XML character");
  EXPECT_EQ(error_of(r + "<record id=\"1\" x=\"&#x110000;\"/></r>"),
            "22: character reference '&#x110000;' is not to an XML character");
  EXPECT_EQ(error_of(r + "<record id=\"1\" x=\"&#xg;\"/></r>"),
            "22: malformed character reference '&#xg;': expected hexadecimal digits");
  EXPECT_EQ(error_of(r + "<record id=\"1\" x=\"1&amp\"/></r>"),
            "23: expected a reference ending in ';' after '&' in an attribute value");
  EXPECT_EQ(error_of(r + "<record id=\"1\" x=\"\xC3\x28\"/></r>"),
            "22: invalid UTF-8 in an attribute value");
  EXPECT_EQ(error_of(r + "<record id=\"1\" x=\"\xE9\"/></r>"),
            "22: invalid UTF-8 in an attribute value");
  EXPECT_EQ(error_of(r + "<record id=\"1\" x=\"\x01\"/></r>"),
            "22: byte 0x01 is not allowed in an attribute value: XML has no control characters");
  EXPECT_EQ(error_of(r + "<!-- \xED\xA0\x80 --></r>"), "9: invalid UTF-8 in a comment");
  EXPECT_EQ(error_of(r + "<record i\xFF=\"1\" x=\"2\"/></r>"),
            "13: invalid UTF-8 in an attribute name");
  EXPECT_EQ(error_of("<r\xC0\x80/>"), "2: invalid UTF-8 in the document element's name");
  // a value of a field that is valid UTF-8 but no number is the encoder's refusal
  EXPECT_EQ(error_of(r + "<record id=\"1\" x=\"\xC3\xA9\"/></r>"),
            "22: expected a number for field 'x' (f64), found \"\\xc3\\xa9\"");
}

// whole_records on `text` (after "<records>"), not at the input's end.
std::size_t cut_of(const std::string& text) {
  static xml_reader reader("id:i32,x:f64");
  static bool head = reader.parser->read_head("<records>", false).has_value();
  EXPECT_TRUE(head);
  return reader.parser->whole_records(text, false);
}

TEST(text2bin_xml, whole_records_cuts_after_whole_records_only) {
  const std::string one = "<record id=\"1\" x=\"2\"/>";  // 22 bytes
  EXPECT_EQ(cut_of(one + "\n<record id=\"2\" x="), 23u);
  EXPECT_EQ(cut_of(one + "<record id=\"2\" x=\"3\"></record"), 22u);
  EXPECT_EQ(cut_of(one + "<record id=\"2\" x=\"3\"></record>"), 52u);
  // a '>' inside a value does not end the tag
  EXPECT_EQ(cut_of("<record id=\"1>\" x='/>'"), 0u);
  EXPECT_EQ(cut_of(one + "<record id=\"1>\" x='/>'/"), 22u);
  // ... nor does one in a value longer than a 16-byte block, or across blocks
  const std::string closes(40, '>');
  const std::string long_one = "<record id=\"" + closes + "/>\" x=\"2" + closes + "\"/>";
  EXPECT_EQ(cut_of(one + long_one + "<rec"), 22 + long_one.size());
  EXPECT_EQ(cut_of(one + long_one.substr(0, long_one.size() - 2)), 22u);
  EXPECT_EQ(cut_of(std::string(20, ' ') + "<record x=\"" + closes + "\"\n\n\n\n\n\n\n\n\n/>"),
            20 + 11 + 40 + 1 + 9 + 2u);
  EXPECT_EQ(cut_of("<record id='" + closes + "' x=\"" + closes + "'\"/>"), 12 + 40 + 5 + 40 + 4u);
  EXPECT_EQ(cut_of(one + "<!-- <record/> --><!-- <rec"), 40u);
  EXPECT_EQ(cut_of(one + "<![CDATA[ ]]><![CDATA[ "), 35u);
  EXPECT_EQ(cut_of(one + "<?pi <record/> ?>\n  "), 42u);
  // never the document's end: the place before its end tag, even when whole
  EXPECT_EQ(cut_of(one + "\n</records>\n<!-- end -->\n"), 23u);
  EXPECT_EQ(cut_of(one + "</rec"), 22u);
  EXPECT_EQ(cut_of("</records>"), 0u);
}

TEST(text2bin_xml, whole_records_refuses_what_cannot_become_records) {
  auto refusal = [](const std::string& text) -> std::string {
    try {
      cut_of(text);
    } catch (const text_error& e) {
      return std::to_string(e.at()) + ": " + e.what();
    }
    return "no error";
  };
  EXPECT_EQ(refusal("<record id=\"1\" x=\"2\"/><other "),
            "22: expected a <record> element, found <other>");
  EXPECT_EQ(refusal("<record id=\"1\" x=\"2\" y=\"345678901234567890<"),
            "42: '<' is not allowed in an attribute value: expected '&lt;'");
  EXPECT_EQ(refusal("<record id=\"1<"),
            "13: '<' is not allowed in an attribute value: expected '&lt;'");
  EXPECT_EQ(refusal("\n</other>"), "1: expected '</records>', found '</other>'");
  EXPECT_EQ(refusal("</records><record"),
            "10: expected only comments, processing instructions or whitespace after "
            "'</records>', found '<'");
  EXPECT_EQ(refusal("  text"), "2: expected a <record> element or whitespace, found 't'");
}

TEST(text2bin_xml, refused_record_leaves_only_the_records_before) {
  xml_reader reader("id:i32,x:f64");
  ASSERT_TRUE(reader.parser->read_head("<records>", false));
  std::vector<unsigned char> out = {9};
  EXPECT_THROW(
      reader.parser->parse("<record id=\"7\" x=\"0.5\"/><record id=\"8\" x=\"z\"/>", false, out),
      text_error);
  EXPECT_EQ(out, joined({{9}, id_x(7, 0.5)}));
}

#ifdef SLUICE_TEST_PYTHON3
using text2bin_xml_python = sluice_test::dir_test;

TEST_F(text2bin_xml_python, reads_xml_etree_output) {
  // Python writes random records with xml.etree (its own quoting, attribute
  // order, a declaration with single quotes, comments, processing
  // instructions, indentation) and their bytes with struct.
  const char* script = R"(
import random, struct, sys, xml.etree.ElementTree as et
random.seed(3)
root = et.Element('data', {'note': '<&>"\''})
packed = b''
for n in range(300):
    i, u, x = random.randint(-2**31, 2**31 - 1), random.randint(0, 2**64 - 1), random.uniform(-1e300, 1e300)
    f = struct.unpack('<f', struct.pack('<f', random.uniform(-1e30, 1e30)))[0]
    attributes = [('u', str(u)), ('x', repr(x)), ('i', str(i)), ('f', repr(f))]
    random.shuffle(attributes)
    et.SubElement(root, 'row', dict(attributes))
    root.append(et.Comment(' <row i="1"/> -> ')) if n % 50 == 3 else None
    root.append(et.ProcessingInstruction('app', 'a > b')) if n % 70 == 5 else None
    et.SubElement(root, 'row', {'i': '-0', 'u': '0', 'x': '-0.0', 'f': 'inf'}) if n == 7 else None
    packed += struct.pack('<iQdf', i, u, x, f)
    packed += struct.pack('<iQdf', 0, 0, -0.0, float('inf')) if n == 7 else b''
et.indent(root, space='\t') if hasattr(et, 'indent') else None
et.ElementTree(root).write(sys.argv[1], encoding='UTF-8', xml_declaration=True)
open(sys.argv[2], 'wb').write(packed)
)";
  sluice_test::write_all(dir / "make.py", script);
  std::string command = std::string("'") + SLUICE_TEST_PYTHON3 + "' '" +
                        (dir / "make.py").native() + "' '" + (dir / "out.xml").native() + "' '" +
                        (dir / "out.bin").native() + "'";
  ASSERT_EQ(std::system(command.c_str()), 0);
  std::string xml = sluice_test::read_all(dir / "out.xml");
  std::string packed = sluice_test::read_all(dir / "out.bin");
  xml_reader reader("i:i32,u:u64,x:f64,f:f32", "row");
  auto records = reader.convert(xml, 1000);
  EXPECT_EQ(std::string(records.begin(), records.end()), packed);
  EXPECT_EQ(packed.size(), 301u * 24);
}

// Whether each document is well-formed, as Python's xml.etree (expat) says:
// a '1' or '0' per document.
std::string python_verdicts(const sluice_test::temp_dir& dir,
                            const std::vector<std::string>& docs) {
  std::string lines;
  for (const auto& doc : docs) {
    for (unsigned char c : doc) {
      lines += "0123456789abcdef"[c >> 4];
      lines += "0123456789abcdef"[c & 0xF];
    }
    lines += '\n';
  }
  sluice_test::write_all(dir / "docs", lines);
  sluice_test::write_all(dir / "check.py", R"(
import sys, xml.etree.ElementTree as et
verdicts = ''
for line in open(sys.argv[1]):
    try:
        et.fromstring(bytes.fromhex(line.strip()))
        verdicts += '1'
    except et.ParseError:
        verdicts += '0'
open(sys.argv[2], 'w').write(verdicts)
)");
  std::string command = std::string("'") + SLUICE_TEST_PYTHON3 + "' '" +
                        (dir / "check.py").native() + "' '" + (dir / "docs").native() + "' '" +
                        (dir / "verdicts").native() + "'";
  EXPECT_EQ(std::system(command.c_str()), 0);
  return sluice_test::read_all(dir / "verdicts");
}

TEST_F(text2bin_xml_python, agrees_with_xml_etree_on_adversarial_documents) {
  // Each has the records' right fields: only its XML decides.
  const std::vector<std::string> docs = {
      "<r><record id=\"1\" x=\"2\"/></r>",
      "<r><record id=\"1\" x=\"2\"></r>",
      "<r><record id=\"1\" x=\"2\"/>",
      "<r><record id=\"1\" x=\"2\"/></r><r/>",
      "<r><record id=\"1\" x=\"2\"/></r>&#32;",
      "<r><record id=\"1\" x=\"2\"/></R>",
      "<r><record id=\"1\" x=\"2\" id=\"1\"/></r>",
      "<r><record id=\"&#49;\" x=\"&#x32;\"/></r>",
      "<r><record id=\"&#0;\" x=\"2\"/></r>",
      "<r><record id=\"1\" x=\"&#x110000;\"/></r>",
      "<r><record id=\"1\" x=\"&#xD800;\"/></r>",
      "<r><record id=\"1\" x=\"&bogus;\"/></r>",
      "<r><record id=\"1\" x=\"2&\"/></r>",
      "<r><record id=\"1\" x=\"2<\"/></r>",
      "<r><record id=\"1\" x=\"\xff\"/></r>",
      "<r><record id=\"1\" x=\"\x01\"/></r>",
      "<r><record id=\"1\"x=\"2\"/></r>",
      "<r><record id=\"1\" x=\"2\" /  ></r>",
      "<r><record id=1 x=\"2\"/></r>",
      "<r><!-- a -- b --><record id=\"1\" x=\"2\"/></r>",
      "<r><!-- \xed\xa0\x80 --><record id=\"1\" x=\"2\"/></r>",
      "<r><?xml version=\"1.0\"?><record id=\"1\" x=\"2\"/></r>",
      " <?xml version=\"1.0\"?><r/>",
      "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?><r><record id=\"1\" x=\"2\"/></r>",
      "<r><record id=\"1\" x=\"2\"/><![CDATA[ \n ]]></r>",
      "<r a=\"&lt;&amp;\"><record id='1' x=\"2\"/><!-- > --><?p ?></r>\n<!-- end -->",
      "<!DOCTYPE r SYSTEM \"r.dtd\"><r><record id=\"1\" x=\"2\"/></r>",
      "<r>\r\n<record\r\nid=\"1\"\r\nx='2'/>\r\n</r>\r\n",
      "<r><record id=\"1\" x=\"2\"></record ></r>",
      "<r><record id=\"1\" x=\"2\"><!-- c --></record></r>",
      "<1r/>",
      "<r><record id=\"1\" x=\"2\"/></r><!-- -->\n<?end?>",
      "<r></r><!-- - -->",
      "<r/><!-- --->",
  };
  std::string verdicts = python_verdicts(dir, docs);
  ASSERT_EQ(verdicts.size(), docs.size());
  for (std::size_t i = 0; i < docs.size(); ++i) {
    xml_reader reader("id:i32,x:f64");
    bool ours = true;
    try {
      reader.convert(docs[i], 7);
    } catch (const text_error&) {
      ours = false;
    }
    EXPECT_EQ(ours, verdicts[i] == '1') << "document " << i << ": " << docs[i];
  }
}
#else
TEST(text2bin_xml_python, python_checks_need_python3) {
  GTEST_SKIP() << "python3 was not found at configure time (or the build is a cross build): "
                  "xml.etree's output and verdicts are not compared";
}
#endif

}  // namespace
