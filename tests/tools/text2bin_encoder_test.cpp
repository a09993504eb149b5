// sluice-text2bin's field encoder (tools/text2bin/record_encoder.*): every
// type's text to its bytes in either byte order, and each refusal naming the
// field and where its text starts.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "common/schema.hpp"
#include "text2bin/record_encoder.hpp"
#include "text2bin/text_error.hpp"

namespace {

using text2bin::record_encoder;

const char* every_type = "a:i8,b:u8,c:i16,d:u16,e:i32,f:u32,g:i64,h:u64,x:f32,y:f64";

template <class T>
T field_value(const std::vector<unsigned char>& record, std::size_t offset) {
  T value;
  std::memcpy(&value, record.data() + offset, sizeof value);
  return value;
}

TEST(text2bin_encoder, writes_each_type_at_its_offset) {
  record_encoder encoder(sluice_tools::parse_schema(every_type), false);
  ASSERT_EQ(encoder.record_size(), 1u + 1 + 2 + 2 + 4 + 4 + 8 + 8 + 4 + 8);
  std::vector<unsigned char> record(encoder.record_size(), 0xee);
  const char* texts[] = {"-128",
                         "255",
                         "-32768",
                         "65535",
                         "-2147483648",
                         "4294967295",
                         "-9223372036854775808",
                         "18446744073709551615",
                         "1e-45",
                         "-0"};
  for (std::size_t i = 0; i < 10; ++i) encoder.encode(i, texts[i], 0, record.data());
  EXPECT_EQ(field_value<std::int8_t>(record, 0), -128);
  EXPECT_EQ(field_value<std::uint8_t>(record, 1), 255);
  EXPECT_EQ(field_value<std::int16_t>(record, 2), -32768);
  EXPECT_EQ(field_value<std::uint16_t>(record, 4), 65535);
  EXPECT_EQ(field_value<std::int32_t>(record, 6), std::numeric_limits<std::int32_t>::min());
  EXPECT_EQ(field_value<std::uint32_t>(record, 10), 4294967295u);
  EXPECT_EQ(field_value<std::int64_t>(record, 14), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(field_value<std::uint64_t>(record, 22), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(field_value<float>(record, 30), std::numeric_limits<float>::denorm_min());
  double zero = field_value<double>(record, 34);
  EXPECT_EQ(zero, 0.0);
  EXPECT_TRUE(std::signbit(zero));
}

TEST(text2bin_encoder, big_endian_reverses_each_field) {
  record_encoder encoder(sluice_tools::parse_schema("n:u32,x:f64"), true);
  std::vector<unsigned char> record(encoder.record_size());
  encoder.encode(0, "16909060", 0, record.data());  // 0x01020304
  encoder.encode(1, "1", 0, record.data());         // 0x3ff0000000000000
  std::vector<unsigned char> expected = {1, 2, 3, 4, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(record, expected);
}

TEST(text2bin_encoder, infinities_and_nan) {
  record_encoder encoder(sluice_tools::parse_schema("x:f32,y:f64"), false);
  std::vector<unsigned char> record(encoder.record_size());
  encoder.encode(0, "-inf", 0, record.data());
  encoder.encode(1, "nan", 0, record.data());
  EXPECT_EQ(field_value<float>(record, 0), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(field_value<std::uint64_t>(record, 4),
            std::bit_cast<std::uint64_t>(std::numeric_limits<double>::quiet_NaN()));
  encoder.encode(0, "1", 0, record.data());
  encoder.encode_nan(0, 0, record.data());
  EXPECT_EQ(field_value<std::uint32_t>(record, 0),
            std::bit_cast<std::uint32_t>(std::numeric_limits<float>::quiet_NaN()));
}

// The text_error encode(field, text, at) throws: its message and position.
text2bin::text_error refusal(const char* schema, std::size_t field, const char* text) {
  record_encoder encoder(sluice_tools::parse_schema(schema), false);
  std::vector<unsigned char> record(encoder.record_size());
  try {
    encoder.encode(field, text, 17, record.data());
  } catch (const text2bin::text_error& e) {
    return e;
  }
  return text2bin::text_error(0, "no error");
}

TEST(text2bin_encoder, refusals_name_the_field_and_the_text) {
  auto bad = refusal("a:i8,id:i32", 1, "12x");
  EXPECT_EQ(bad.at(), 17u);
  EXPECT_STREQ(bad.what(), "expected a decimal integer for field 'id' (i32), found \"12x\"");
  EXPECT_STREQ(refusal("id:i32", 0, "3000000000").what(),
               "field 'id' (i32) out of range: \"3000000000\"");
  EXPECT_STREQ(refusal("n:u8", 0, "-1").what(), "field 'n' (u8) out of range: \"-1\"");
  EXPECT_STREQ(refusal("x:f32", 0, "1e39").what(), "field 'x' (f32) out of range: \"1e39\"");
  EXPECT_STREQ(refusal("x:f64", 0, "").what(),
               "expected a number for field 'x' (f64), found nothing");
  EXPECT_STREQ(refusal("x:f64", 0, " 1").what(),
               "expected a number for field 'x' (f64), found \" 1\"");
}

TEST(text2bin_encoder, null_is_refused_for_an_integer) {
  record_encoder encoder(sluice_tools::parse_schema("id:i64"), false);
  std::vector<unsigned char> record(encoder.record_size());
  try {
    encoder.encode_nan(0, 5, record.data());
    FAIL() << "no error";
  } catch (const text2bin::text_error& e) {
    EXPECT_EQ(e.at(), 5u);
    EXPECT_STREQ(e.what(), "expected a decimal integer for field 'id' (i64), found null");
  }
}

TEST(text2bin_encoder, a_prefix_encoder_reads_a_number_up_to_what_follows_it) {
  record_encoder encoder(sluice_tools::parse_schema("n:i8,x:f64"), true);
  std::vector<unsigned char> record(encoder.record_size(), 0xee);
  std::string_view text = "-7,1e3\n";
  const char* last = text.data() + text.size();
  const char* comma = encoder.prefix_encoder(0)(text.data(), last, record.data());
  ASSERT_EQ(comma, text.data() + 2);
  const char* line_end = encoder.prefix_encoder(1)(comma + 1, last, record.data());
  ASSERT_EQ(line_end, text.data() + 6);
  std::vector<unsigned char> expected = {0xf9, 0x40, 0x8f, 0x40, 0, 0, 0, 0, 0};
  EXPECT_EQ(record, expected);
  // What std::from_chars refuses is left to encode(), and nothing is stored.
  for (std::string_view refused : {"+1", "300", "x", "", "-"}) {
    const char* end = refused.data() + refused.size();
    EXPECT_EQ(encoder.prefix_encoder(0)(refused.data(), end, record.data()), nullptr) << refused;
    EXPECT_EQ(record, expected) << refused;
  }
}

TEST(text2bin_encoder, finds_fields_by_name) {
  record_encoder encoder(sluice_tools::parse_schema("id:i32,x:f64"), false);
  EXPECT_EQ(encoder.find("x"), 1u);
  EXPECT_EQ(encoder.find("X"), record_encoder::npos);
  EXPECT_EQ(encoder.describe(0), "field 'id' (i32)");
}

}  // namespace
