// sluice-text2bin's JSON Lines parser (tools/text2bin/jsonl_parser.*):
// sluice-bin2text's own lines back to the same bytes, what other producers
// write (Python's json module among them), every refusal at its exact byte,
// and where whole records end.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bin2text/record_text.hpp"
#include "common/schema.hpp"
#include "support/test_support.hpp"
#include "text2bin/jsonl_parser.hpp"
#include "text2bin/record_encoder.hpp"
#include "text2bin/text_error.hpp"

namespace {

using bytes = std::vector<unsigned char>;
using sluice_tools::format;
using sluice_tools::parse_schema;
using text2bin::record_encoder;

const char* every_type = "a:i8,b:u8,c:i16,d:u16,e:i32,f:u32,g:i64,h:u64,x:f32,y:f64";

// A parser for `schema`, with the encoder it needs.
struct jsonl {
  record_encoder encoder;
  std::unique_ptr<text2bin::format_parser> parser;

  explicit jsonl(const char* schema, bool big_endian = false)
      : encoder(parse_schema(schema), big_endian),
        parser(text2bin::make_jsonl_parser(text2bin::job{}, encoder)) {}

  bytes parse(std::string_view text) const {
    bytes out;
    parser->parse(text, true, out);
    return out;
  }
};

// The text_error parsing `text` throws (at() npos if none).
text2bin::text_error refusal(const char* schema, std::string_view text) {
  jsonl json(schema);
  try {
    json.parse(text);
  } catch (const text2bin::text_error& e) {
    return e;
  }
  return text2bin::text_error(std::string_view::npos, "no error");
}

// sluice-bin2text's JSON Lines for `records` (packed, in `schema`'s layout).
std::string bin2text_lines(const char* schema, const bytes& records, bool big_endian) {
  auto layout = parse_schema(schema);
  bin2text::record_text text(layout, format::jsonl, big_endian);
  std::string out(records.size() / layout.record_size * text.max_size(), '\0');
  char* end = out.data();
  for (std::size_t at = 0; at < records.size(); at += layout.record_size)
    end = text.write(end, records.data() + at);
  out.resize(static_cast<std::size_t>(end - out.data()));
  return out;
}

template <class T>
void append(bytes& record, T value, bool big_endian) {
  unsigned char raw[sizeof value];
  std::memcpy(raw, &value, sizeof value);
  if (big_endian != (std::endian::native == std::endian::big))
    std::reverse(raw, raw + sizeof value);
  record.insert(record.end(), raw, raw + sizeof value);
}

// One every_type record: integers from `i`, floats `x` and `y`.
void append_record(bytes& out, std::uint64_t i, float x, double y, bool big_endian) {
  append(out, static_cast<std::int8_t>(i), big_endian);
  append(out, static_cast<std::uint8_t>(i), big_endian);
  append(out, static_cast<std::int16_t>(i), big_endian);
  append(out, static_cast<std::uint16_t>(i), big_endian);
  append(out, static_cast<std::int32_t>(i), big_endian);
  append(out, static_cast<std::uint32_t>(i), big_endian);
  append(out, static_cast<std::int64_t>(i), big_endian);
  append(out, i, big_endian);
  append(out, x, big_endian);
  append(out, y, big_endian);
}

template <class T>
std::vector<T> extreme_floats() {
  using limits = std::numeric_limits<T>;
  return {0,
          -T(0),
          limits::denorm_min(),
          -limits::denorm_min(),
          limits::min(),
          limits::max(),
          limits::lowest(),
          limits::epsilon(),
          T(0.1),
          T(1) / 3,
          T(1e-7),
          T(123456789),
          limits::quiet_NaN()};
}

TEST(text2bin_jsonl, bin2text_lines_of_extreme_values_give_the_same_bytes) {
  const std::uint64_t integers[] = {0,
                                    1,
                                    ~0ull,
                                    0x7f,
                                    0x80,
                                    0x7fff,
                                    0x8000,
                                    0x7fffffff,
                                    0x80000000,
                                    0x7fffffffffffffff,
                                    0x8000000000000000};
  for (bool big : {false, true}) {
    bytes records;
    auto floats = extreme_floats<float>();
    auto doubles = extreme_floats<double>();
    for (std::size_t i = 0; i < floats.size(); ++i)
      for (std::uint64_t integer : integers)
        append_record(records, integer, floats[i], doubles[i], big);
    std::string text = bin2text_lines(every_type, records, big);
    EXPECT_EQ(jsonl(every_type, big).parse(text), records) << text;
  }
}

TEST(text2bin_jsonl, bin2text_lines_of_random_records_give_the_same_bytes) {
  std::mt19937_64 random(20);
  bytes records;
  for (int i = 0; i < 5000; ++i) {
    float x = std::bit_cast<float>(static_cast<std::uint32_t>(random()));
    double y = std::bit_cast<double>(random());
    if (!std::isfinite(x)) x = std::numeric_limits<float>::quiet_NaN();  // as null gives back
    if (!std::isfinite(y)) y = std::numeric_limits<double>::quiet_NaN();
    append_record(records, random() >> (random() % 64), x, y, false);
  }
  std::string text = bin2text_lines(every_type, records, false);
  EXPECT_EQ(jsonl(every_type).parse(text), records);
}

TEST(text2bin_jsonl, infinities_written_as_null_come_back_as_nan) {
  bytes records, nans;
  append_record(records, 0, std::numeric_limits<float>::infinity(),
                -std::numeric_limits<double>::infinity(), false);
  append_record(nans, 0, std::numeric_limits<float>::quiet_NaN(),
                std::numeric_limits<double>::quiet_NaN(), false);
  std::string text = bin2text_lines(every_type, records, false);
  EXPECT_NE(text.find("\"x\":null,\"y\":null"), std::string::npos) << text;
  EXPECT_EQ(jsonl(every_type).parse(text), nans);
}

TEST(text2bin_jsonl, what_other_producers_write_gives_the_same_record) {
  jsonl json("id:i32,x:f64,n:u8");
  bytes expected = json.parse("{\"id\":7,\"x\":0.25,\"n\":3}");
  ASSERT_EQ(expected.size(), 13u);
  const char* variants[] = {
      "{\"n\":3,\"x\":0.25,\"id\":7}",
      "{\"x\":0.25,\"id\":7,\"n\":3}",
      " \t{ \"id\" : 7 ,\t\"x\" :0.25 , \"n\": 3 } \t",
      "{\"id\":7,\"x\":0.25,\"n\":3}\r",
      "{\"\\u0069d\":7,\"\\u0078\":0.25,\"\\u006E\":3}",
      "{\"i\\u0064\":7,\"x\":0.25,\"n\":3}",
      "{\"id\":7,\"x\":2.5e-1,\"n\":3}",
      "{\"id\":7,\"x\":25E-2,\"n\":3}",
      "{\"id\":7,\"x\":0.250000,\"n\":3}",
      "{\"id\":7.0,\"x\":0.25,\"n\":3e0}",
      "{\"id\":70e-1,\"x\":0.025e1,\"n\":0.3E+1}",
      "{\"id\":0.007e3,\"x\":0.25,\"n\":300e-2}",
  };
  for (const char* text : variants) EXPECT_EQ(json.parse(text), expected) << text;
}

TEST(text2bin_jsonl, number_forms) {
  jsonl json("id:i64,x:f64");
  auto value = [&](const char* text) {
    bytes record = json.parse(text);
    std::int64_t id;
    double x;
    std::memcpy(&id, record.data(), 8);
    std::memcpy(&x, record.data() + 8, 8);
    return std::pair(id, x);
  };
  EXPECT_EQ(value("{\"id\":1E+2,\"x\":1E+2}"), std::pair(std::int64_t{100}, 100.0));
  EXPECT_EQ(value("{\"id\":-1e18,\"x\":0.5e-3}"),
            std::pair(std::int64_t{-1000000000000000000}, 0.0005));
  EXPECT_EQ(value("{\"id\":-9223372036854775808,\"x\":5e-324}").first,
            std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(value("{\"id\":-9.223372036854775808e18,\"x\":1}").first,
            std::numeric_limits<std::int64_t>::min());
  auto [zero, negative_zero] = value("{\"id\":-0.0e5,\"x\":-0}");
  EXPECT_EQ(zero, 0);
  EXPECT_TRUE(std::signbit(negative_zero));
  EXPECT_EQ(value("{\"id\":0,\"x\":null}").first, 0);
  EXPECT_TRUE(std::isnan(value("{\"id\":0,\"x\":null}").second));
}

TEST(text2bin_jsonl, blank_lines_crlf_and_a_missing_final_newline) {
  jsonl json("id:u16");
  bytes two = {1, 0, 2, 0};
  EXPECT_EQ(json.parse("\r\n\n  \t\n{\"id\":1}\r\n\r\n{\"id\":2}\r\n\n"), two);
  EXPECT_EQ(json.parse("{\"id\":1}\n{\"id\":2}"), two);
  EXPECT_EQ(json.parse("{\"id\":1}\n{\"id\":2} \r"), two);
  EXPECT_EQ(json.parse(""), bytes{});
  EXPECT_EQ(json.parse("\n\r\n"), bytes{});
}

struct bad_line {
  const char* text;
  std::size_t at;
  const char* message;
};

const bad_line bad_lines[] = {
    {"[1]", 0, "expected '{' to start a record, found '['"},
    {"\x01{}", 0, "expected '{' to start a record, found byte 0x01"},
    {"{id:1}", 1, "expected '\"' to start a key or '}', found 'i'"},
    {"{", 1, "expected '\"' to start a key or '}', found the line end"},
    {"{\"id\":1,}", 8, "expected '\"' to start a key, found '}'"},
    {"{\"id\" 1,\"x\":2}", 6, "expected ':' after key \"id\", found '1'"},
    {"{\"id\":1 \"x\":2}", 8, "expected ',' or '}' after field 'id' (i32), found '\"'"},
    {"{\"id\":1,\"x\":2", 13, "expected ',' or '}' after field 'x' (f64), found the line end"},
    {"{\"id\":1,\"x\":}", 12, "expected a number for field 'x' (f64), found '}'"},
    {"{\"id\":1,\"x\":", 12, "expected a number for field 'x' (f64), found the line end"},
    {"{\"id\":1}", 7, "missing field 'x' (f64): expected every field of the schema, found '}'"},
    {"{}", 1, "missing field 'id' (i32): expected every field of the schema, found '}'"},
    {"{\"id\":1,\"x\":2,\"y\":3}", 14, "unexpected key \"y\": the schema has no such field"},
    {"{\"x\":2,\"\\u00e9\":3}", 7, "unexpected key \"\\u00e9\": the schema has no such field"},
    {"{\"\\uD83D\\uDE00\":1}", 1,
     "unexpected key \"\\uD83D\\uDE00\": the schema has no such field"},
    {"{\"id\":1,\"id\":2,\"x\":3}", 8, "key \"id\" twice in a record"},
    {"{\"x\":2,\"\x7f\":3}", 7, "unexpected key \"\\u007f\": the schema has no such field"},
    {"{\"id\":1,\"x\":2,\"\\u0069d\":2}", 14, "key \"\\u0069d\" twice in a record"},
    {"{\"id\":\"1\",\"x\":2}", 6, "expected a number for field 'id' (i32), found a string"},
    {"{\"id\":{},\"x\":2}", 6, "expected a number for field 'id' (i32), found an object"},
    {"{\"id\":[1],\"x\":2}", 6, "expected a number for field 'id' (i32), found an array"},
    {"{\"id\":true,\"x\":2}", 6, "expected a number for field 'id' (i32), found true"},
    {"{\"id\":1,\"x\":false}", 12, "expected a number for field 'x' (f64), found false"},
    {"{\"id\":1,\"x\":Infinity}", 12, "expected a number for field 'x' (f64), found 'I'"},
    {"{\"id\":1,\"x\":+1}", 12, "expected a number for field 'x' (f64), found '+'"},
    {"{\"id\":1,\"x\":.5}", 12, "expected a number for field 'x' (f64), found '.'"},
    {"{\"id\":null,\"x\":2}", 6, "expected a decimal integer for field 'id' (i32), found null"},
    {"{\"id\":3000000000,\"x\":2}", 6, "field 'id' (i32) out of range: \"3000000000\""},
    {"{\"id\":3e9,\"x\":2}", 6, "field 'id' (i32) out of range: \"3e9\""},
    {"{\"id\":1e999999999999,\"x\":2}", 6, "field 'id' (i32) out of range: \"1e999999999999\""},
    {"{\"id\":1.5,\"x\":2}", 6,
     "expected an integer for field 'id' (i32), found 1.5, not a whole number"},
    {"{\"id\":1e-1,\"x\":2}", 6,
     "expected an integer for field 'id' (i32), found 1e-1, not a whole number"},
    {"{\"id\":1,\"x\":1e400}", 12, "field 'x' (f64) out of range: \"1e400\""},
    {"{\"id\":01,\"x\":2}", 7,
     "expected '.', 'e' or the number's end after a leading 0, found '1'"},
    {"{\"id\":-,\"x\":2}", 7, "expected a digit after '-', found ','"},
    {"{\"id\":1,\"x\":1.}", 14, "expected a digit after '.', found '}'"},
    {"{\"id\":1,\"x\":1e+}", 15, "expected a digit in the exponent, found '}'"},
    {"{\"id\":1,\"x\":2} x", 15, "expected the line end after the record, found 'x'"},
    {"{\"id\":1,\"x\":2}{\"id\":1,\"x\":2}", 14,
     "expected the line end after the record, found '{'"},
    {"{\"id", 4, "expected '\"' to end the key, found the line end"},
    {"{\"i\xff\":1}", 3, "invalid UTF-8 in a key at byte 0xff"},
    {"{\"i\xc0\xaf\":1}", 3, "invalid UTF-8 in a key at byte 0xc0"},      // overlong
    {"{\"i\xed\xa0\x80\":1}", 3, "invalid UTF-8 in a key at byte 0xed"},  // a surrogate
    {"{\"i\xe2\x82", 3, "invalid UTF-8 in a key at byte 0xe2"},           // cut by the line end
    {"{\"i\td\":1}", 3,
     "expected a character of the key, found control character 0x09 (JSON writes it as an "
     "escape)"},
    {"{\"\\q\":1}", 3,
     "expected an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX) after '\\', found 'q'"},
    {"{\"\\u12G4\":1}", 6, "expected 4 hex digits after \\u, found 'G'"},
    {"{\"\\uD83D\":1}", 8, "expected a \\uDC00-\\uDFFF low surrogate after \\uD83D, found '\"'"},
    {"{\"\\uD83D\\u0041\":1}", 8,
     "expected a \\uDC00-\\uDFFF low surrogate after \\uD83D, found \\u0041"},
    {"{\"\\uDE00\":1}", 2,
     "expected a \\uD800-\\uDBFF high surrogate before the low surrogate \\uDE00"},
};

TEST(text2bin_jsonl, refusals_name_the_byte_and_what_was_expected) {
  for (const auto& bad : bad_lines) {
    auto e = refusal("id:i32,x:f64", bad.text);
    EXPECT_EQ(e.at(), bad.at) << bad.text;
    EXPECT_STREQ(e.what(), bad.message) << bad.text;
  }
}

TEST(text2bin_jsonl, a_long_unknown_key_is_cut_in_the_message) {
  std::string key(70, 'k');
  auto e = refusal("id:i32", "{\"" + key + "\":1}");
  EXPECT_EQ(e.at(), 1u);
  EXPECT_EQ(std::string(e.what()), "unexpected key \"" + key.substr(0, 47) +
                                       "...\" (72 bytes): the schema has no such field");
}

TEST(text2bin_jsonl, a_refusal_counts_from_the_piece_and_keeps_the_records_before_it) {
  jsonl json("id:u8");
  bytes out = {9};
  std::string piece = "{\"id\":1}\r\n\n{\"id\":2}\n{\"id\":256}\n{\"id\":3}\n";
  try {
    json.parser->parse(piece, false, out);
    FAIL() << "no error";
  } catch (const text2bin::text_error& e) {
    EXPECT_EQ(e.at(), piece.find("256"));
    EXPECT_STREQ(e.what(), "field 'id' (u8) out of range: \"256\"");
  }
  EXPECT_EQ(out, (bytes{9, 1, 2}));
}

TEST(text2bin_jsonl, an_unsigned_field_takes_minus_zero_and_refuses_minus_one) {
  jsonl json("n:u32");
  EXPECT_EQ(json.parse("{\"n\":-0}\n{\"n\":-0.0}"), bytes(8, 0));
  EXPECT_STREQ(refusal("n:u32", "{\"n\":-1}").what(), "field 'n' (u32) out of range: \"-1\"");
  EXPECT_STREQ(refusal("n:u32", "{\"n\":-1.0}").what(), "field 'n' (u32) out of range: \"-1.0\"");
}

TEST(text2bin_jsonl, no_head_and_whole_records_end_after_the_last_newline) {
  jsonl json("id:i32");
  EXPECT_EQ(json.parser->read_head("{\"id\":1}\n", false), 0u);
  EXPECT_EQ(json.parser->read_head("", true), 0u);
  const auto& parser = *json.parser;
  EXPECT_EQ(parser.whole_records("", false), 0u);
  EXPECT_EQ(parser.whole_records("{\"id\":1}", false), 0u);
  EXPECT_EQ(parser.whole_records("{\"id\":1}\n", false), 9u);
  EXPECT_EQ(parser.whole_records("{\"id\":1}\r\n{\"id\":2}\n{\"i", false), 19u);
  EXPECT_EQ(parser.whole_records("{\"id\":1}\n{\"i", true), 12u);
  EXPECT_EQ(parser.whole_records("", true), 0u);
}

#ifdef SLUICE_TEST_PYTHON3
// Python's json module writes records (tests/tools/jsonl_producer.py) with
// shuffled keys, varied separators, CRLF and blank lines; struct packs
// them. The parser gives struct's bytes.
TEST(text2bin_jsonl, python_json_lines_give_the_bytes_python_packs) {
  sluice_test::temp_dir dir;
  std::string command = std::string("'") + SLUICE_TEST_PYTHON3 + "' '" + SLUICE_TEST_SOURCE_DIR +
                        "/tools/jsonl_producer.py' '" + dir.path().native() + "'";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  std::string text = sluice_test::read_all(dir / "records.jsonl");
  std::string packed = sluice_test::read_all(dir / "records.bin");
  ASSERT_EQ(packed.size(), 3000u * 26);
  bytes parsed = jsonl("id:i32,ts:i64,x:f32,y:f64,flags:u16").parse(text);
  EXPECT_EQ(parsed, bytes(packed.begin(), packed.end()));
}
#else
TEST(text2bin_jsonl, python_checks_need_python3) {
  GTEST_SKIP() << "python3 was not found at configure time (or the build is a cross build): "
                  "the JSON lines of Python's json module are not read";
}
#endif

}  // namespace
