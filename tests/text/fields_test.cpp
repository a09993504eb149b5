// sluice::fields: how a line splits (empty fields, a delimiter at the start
// or the end, an empty line, a delimiter that can be part of a number), the
// numbers next<T>() reads from it exactly as parse<T> reads each field's
// text, and its refusals, here not located (a line not read by a reader;
// tests/reader/reader_fields_test.cpp has those that are).
#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <sluice/sluice.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::fields;
using sluice::parse_error;

std::vector<std::string> split(std::string_view line, char delimiter = ',') {
  std::vector<std::string> out;
  for (std::string_view field : fields(line, delimiter)) out.emplace_back(field);
  return out;
}

using strings = std::vector<std::string>;

TEST(fields_split, a_line_of_n_delimiters_has_n_plus_one_fields) {
  EXPECT_EQ(split("a,bb,ccc"), (strings{"a", "bb", "ccc"}));
  EXPECT_EQ(split("abc"), (strings{"abc"}));
  EXPECT_EQ(split("a\tb", '\t'), (strings{"a", "b"}));
  EXPECT_EQ(split("a,b", '\t'), (strings{"a,b"}));
}

TEST(fields_split, empty_fields_at_the_start_the_end_and_between) {
  EXPECT_EQ(split(""), (strings{""}));
  EXPECT_EQ(split(","), (strings{"", ""}));
  EXPECT_EQ(split(",a"), (strings{"", "a"}));
  EXPECT_EQ(split("a,"), (strings{"a", ""}));
  EXPECT_EQ(split("a,,b"), (strings{"a", "", "b"}));
  EXPECT_EQ(split(",,,"), (strings{"", "", "", ""}));
  EXPECT_EQ(split(std::string_view()), (strings{""})) << "a null view is an empty line";
}

TEST(fields_split, nothing_is_trimmed_or_unquoted_and_a_cr_stays_in_the_last_field) {
  EXPECT_EQ(split(" a , \"b,c\" \r"), (strings{" a ", " \"b", "c\" \r"}));
  EXPECT_EQ(split(std::string_view("a\0b,\0", 5)),
            (strings{std::string("a\0b", 3), std::string("\0", 1)}));
}

TEST(fields_split, fields_are_views_into_the_line) {
  std::string line = "one,two";
  fields row(line);
  auto first = row.next();
  auto second = row.next();
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first->data(), line.data());
  EXPECT_EQ(second->data(), line.data() + 4);
  EXPECT_FALSE(row.next()) << "nothing once every field was taken";
}

TEST(fields_split, done_rest_and_count_follow_the_cursor) {
  fields row("1,2,");
  EXPECT_FALSE(row.done());
  EXPECT_EQ(row.rest(), "1,2,");
  EXPECT_EQ(row.next<int>(), 1);
  EXPECT_EQ(row.rest(), "2,");
  EXPECT_EQ(row.count(), 1u);
  EXPECT_EQ(row.next(), std::optional<std::string_view>("2"));
  EXPECT_FALSE(row.done()) << "an empty last field is left after a trailing delimiter";
  EXPECT_EQ(row.rest(), "");
  EXPECT_EQ(row.next(), std::optional<std::string_view>(""));
  EXPECT_TRUE(row.done());
  EXPECT_EQ(row.count(), 3u);
  fields empty("");
  EXPECT_FALSE(empty.done()) << "an empty line has one field";
}

TEST(fields_numbers, each_type_reads_its_field_and_stops_at_the_delimiter) {
  fields row(
      "-128,255,-32768,65535,-2147483648,4294967295,-9223372036854775808,"
      "18446744073709551615,0.1,-1e-310,inf,-nan");
  EXPECT_EQ(row.next<std::int8_t>(), -128);
  EXPECT_EQ(row.next<std::uint8_t>(), 255);
  EXPECT_EQ(row.next<std::int16_t>(), -32768);
  EXPECT_EQ(row.next<std::uint16_t>(), 65535);
  EXPECT_EQ(row.next<std::int32_t>(), std::numeric_limits<std::int32_t>::min());
  EXPECT_EQ(row.next<std::uint32_t>(), 4294967295u);
  EXPECT_EQ(row.next<std::int64_t>(), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(row.next<std::uint64_t>(), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(row.next<float>(), 0.1f);
  EXPECT_EQ(row.next<double>(), -1e-310);
  EXPECT_EQ(row.next<double>(), std::numeric_limits<double>::infinity());
  double nan = row.next<double>();
  EXPECT_TRUE(std::isnan(nan) && std::signbit(nan));
  EXPECT_TRUE(row.done());
}

TEST(fields_numbers, what_parse_takes_beyond_from_chars_is_taken_too) {
  fields row("+5,-0,+1.5,ff,-0");
  EXPECT_EQ(row.next<int>(), 5);
  EXPECT_EQ(row.next<unsigned>(), 0u) << "\"-0\" is a zero, also unsigned";
  EXPECT_EQ(row.next<double>(), 1.5);
  EXPECT_EQ(row.next<unsigned>(16), 255u);
  double zero = row.next<double>();
  EXPECT_TRUE(zero == 0 && std::signbit(zero));
}

// A delimiter that can be part of a number splits first: the field is what
// next() would give, not the longest number from_chars could read.
TEST(fields_numbers, a_delimiter_that_can_be_in_a_number_splits_before_it_is_read) {
  fields dots("1.5.25", '.');
  EXPECT_EQ(dots.next<double>(), 1.0);
  EXPECT_EQ(dots.next<int>(), 5);
  EXPECT_EQ(dots.next<int>(), 25);
  fields exponent("1e5e2", 'e');
  EXPECT_EQ(exponent.next<double>(), 1.0);
  EXPECT_EQ(exponent.next<double>(), 5.0);
  EXPECT_EQ(exponent.next<double>(), 2.0);
  fields dashes("10-20--3", '-');
  EXPECT_EQ(dashes.next<int>(), 10);
  EXPECT_EQ(dashes.next<int>(), 20);
  EXPECT_EQ(dashes.next(), std::optional<std::string_view>(""));
  EXPECT_EQ(dashes.next<int>(), 3);
  fields digits("12345", '3');
  EXPECT_EQ(digits.next<int>(), 12);
  EXPECT_EQ(digits.next<int>(), 45);
  fields hex("ff1ab", '1');
  EXPECT_EQ(hex.next<unsigned>(16), 255u);
  EXPECT_EQ(hex.next<unsigned>(16), 0xabu);
}

std::optional<parse_error> refusal(const std::function<void()>& body) {
  return thrown<parse_error>(body);
}

TEST(fields_numbers, a_bad_field_is_refused_as_parse_refuses_its_text) {
  fields row("12x,3000000000,,1e999, 1,5");
  auto bad = refusal([&] { row.next<int>(); });
  ASSERT_TRUE(bad);
  EXPECT_EQ(std::string(bad->what()), "sluice: parse int32 \"12x\": expected a decimal integer");
  EXPECT_EQ(bad->line(), 0u) << "a line not read by a reader is not located";
  auto range = refusal([&] { row.next<std::int32_t>(); });
  ASSERT_TRUE(range);
  EXPECT_EQ(range->code(), std::error_code(ERANGE, std::generic_category()));
  EXPECT_EQ(std::string(range->what()), "sluice: parse int32 \"3000000000\": out of range");
  auto empty = refusal([&] { row.next<double>(); });
  ASSERT_TRUE(empty);
  EXPECT_EQ(std::string(empty->what()),
            "sluice: parse double \"\": expected a decimal number, inf or nan");
  auto huge = refusal([&] { row.next<double>(); });
  ASSERT_TRUE(huge);
  EXPECT_EQ(huge->code(), std::error_code(ERANGE, std::generic_category()));
  auto space = refusal([&] { row.next<long>(); });
  ASSERT_TRUE(space);
  EXPECT_EQ(space->quoted_text(), "\" 1\"");
  EXPECT_EQ(row.next<int>(), 5) << "each refusal moved past its field";
}

TEST(fields_numbers, a_missing_field_says_how_many_the_line_has) {
  fields row("7,8");
  row.next<int>();
  row.next<int>();
  auto missing = refusal([&] { row.next<std::uint16_t>(); });
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->code(), std::error_code(EINVAL, std::generic_category()));
  EXPECT_EQ(std::string(missing->what()),
            "sluice: parse uint16 \"\": missing: the line has 2 fields");
  fields one("x");
  one.next();
  EXPECT_EQ(refusal([&] { one.next<float>(); })->reason(), "missing: the line has 1 field");
}

TEST(fields_numbers, a_base_outside_2_to_36_is_an_invalid_argument) {
  fields row("10");
  EXPECT_THROW(row.next<int>(1), std::invalid_argument);
  EXPECT_THROW(row.next<int>(37), std::invalid_argument);
  EXPECT_EQ(row.next<int>(2), 2) << "the refused base took no field";
}

}  // namespace
