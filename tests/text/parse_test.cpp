// sluice::parse<T>: the texts it accepts and the values they give (extremes
// of every type, signs, bases, zeros, subnormals, infinities, NaNs, the
// rounding edges), the texts it refuses with EINVAL or ERANGE, and the
// messages of parse_error. The types it refuses at compile time.
#include <gtest/gtest.h>

#include <bit>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <sluice/sluice.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::parse;
using sluice::parse_error;

template <class T>
concept parsable = requires(std::string_view text) {
  parse<T>(text);
};
template <class T>
concept parsable_in_base = requires(std::string_view text) {
  parse<T>(text, 16);
};

static_assert(parsable<signed char> && parsable<unsigned char> && parsable<short> &&
              parsable<unsigned short> && parsable<int> && parsable<unsigned> && parsable<long> &&
              parsable<unsigned long> && parsable<long long> && parsable<unsigned long long> &&
              parsable<float> && parsable<double>);
static_assert(!parsable<char> && !parsable<bool> && !parsable<wchar_t> && !parsable<char8_t> &&
              !parsable<char16_t> && !parsable<char32_t> && !parsable<long double>);
static_assert(parsable_in_base<int> && !parsable_in_base<double> && !parsable_in_base<char>);

// The parse_error parse<T>(text) throws (none if it returns).
template <class T>
requires(!std::floating_point<T>) std::optional<parse_error> refusal(std::string_view text,
                                                                     int base = 10) {
  return thrown<parse_error>([&] { parse<T>(text, base); });
}
template <class T>
requires std::floating_point<T> std::optional<parse_error> refusal(std::string_view text) {
  return thrown<parse_error>([&] { parse<T>(text); });
}

template <class T>
std::string to_chars_text(T value) {
  char text[64];
  return std::string(text, std::to_chars(text, text + sizeof text, value).ptr);
}

__extension__ typedef __int128 int128;
__extension__ typedef unsigned __int128 uint128;

// The decimal text of `value` + `delta`, past T's range: one more than the
// maximum or one less than the minimum, in 128 bits.
template <class T>
std::string beyond(int128 delta, T value) {
  int128 wide = static_cast<int128>(value) + delta;
  bool negative = wide < 0;
  uint128 magnitude = negative ? -static_cast<uint128>(wide) : static_cast<uint128>(wide);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + magnitude % 10));
    magnitude /= 10;
  } while (magnitude != 0);
  return negative ? "-" + digits : digits;
}

template <class T>
void check_integer_extremes() {
  using limits = std::numeric_limits<T>;
  SCOPED_TRACE(to_chars_text(limits::max()));
  for (T value : {limits::min(), limits::max(), T{0}, T{1}, static_cast<T>(limits::max() / 3)})
    EXPECT_EQ(parse<T>(to_chars_text(value)), value);
  for (std::string text :
       {beyond(1, limits::max()), beyond(-1, limits::min()), std::string(38, '9')}) {
    auto e = refusal<T>(text);
    ASSERT_TRUE(e) << text;
    EXPECT_EQ(e->code(), std::error_code(ERANGE, std::generic_category())) << text;
    EXPECT_EQ(e->reason(), "out of range") << text;
  }
}

TEST(parse_integer, extremes_of_every_type_and_one_past_them) {
  check_integer_extremes<signed char>();
  check_integer_extremes<unsigned char>();
  check_integer_extremes<short>();
  check_integer_extremes<unsigned short>();
  check_integer_extremes<int>();
  check_integer_extremes<unsigned>();
  check_integer_extremes<long>();
  check_integer_extremes<unsigned long>();
  check_integer_extremes<long long>();
  check_integer_extremes<unsigned long long>();
}

TEST(parse_integer, signs_and_leading_zeros) {
  EXPECT_EQ(parse<int>("-42"), -42);
  EXPECT_EQ(parse<int>("+42"), 42);
  EXPECT_EQ(parse<unsigned>("+42"), 42u);
  EXPECT_EQ(parse<int>("007"), 7);
  EXPECT_EQ(parse<int>("-0"), 0);
  EXPECT_EQ(parse<std::uint8_t>("255"), 255);
  EXPECT_EQ(parse<std::int8_t>("-128"), -128);
}

TEST(parse_integer, a_negative_number_is_out_of_range_for_an_unsigned_type_except_zero) {
  EXPECT_EQ(parse<unsigned>("-0"), 0u);
  EXPECT_EQ(parse<std::uint64_t>("-000"), 0u);
  for (auto text : {"-1", "-4294967296", "-99999999999999999999999"}) {
    auto e = refusal<unsigned>(text);
    ASSERT_TRUE(e) << text;
    EXPECT_EQ(e->code().value(), ERANGE) << text;
  }
  for (auto text : {"-", "-x", "--1", "-+1", "-1x", "+-0"}) {
    auto e = refusal<unsigned>(text);
    ASSERT_TRUE(e) << text;
    EXPECT_EQ(e->code().value(), EINVAL) << text;
  }
}

TEST(parse_integer, malformed_text_is_refused_with_einval) {
  for (auto text : {"", "-", "+", "++1", "+-1", "--1", " 1", "1 ", "1\n", "\t1", "12x", "x12",
                    "0x1f", "1.0", "1e3", "1,000", "1_000", "\xef\xbc\x91", "٣"}) {
    auto e = refusal<int>(text);
    ASSERT_TRUE(e) << text;
    EXPECT_EQ(e->code().value(), EINVAL) << text;
    EXPECT_EQ(e->reason(), "expected a decimal integer") << text;
  }
  auto e = refusal<int>(std::string_view("1\0", 2));
  ASSERT_TRUE(e) << "a NUL after the number";
  EXPECT_EQ(e->code().value(), EINVAL);
}

TEST(parse_integer, a_number_too_large_with_garbage_after_it_is_malformed) {
  auto e = refusal<int>("99999999999x");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EINVAL);
}

TEST(parse_integer, other_bases_as_print_writes_them) {
  EXPECT_EQ(parse<unsigned>("ff", 16), 255u);
  EXPECT_EQ(parse<unsigned>("FF", 16), 255u);
  EXPECT_EQ(parse<int>("-ff", 16), -255);
  EXPECT_EQ(parse<int>("+101", 2), 5);
  EXPECT_EQ(parse<int>("z", 36), 35);
  EXPECT_EQ(parse<std::uint64_t>("ffffffffffffffff", 16), ~std::uint64_t{0});
  auto e = refusal<unsigned>("0x10", 16);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EINVAL);
  EXPECT_EQ(std::string(e->what()),
            "sluice: parse uint32 \"0x10\": expected an integer in base 16");
  auto two = refusal<int>("102", 2);
  ASSERT_TRUE(two);
  EXPECT_EQ(two->code().value(), EINVAL);
  auto range = refusal<std::uint8_t>("100", 16);
  ASSERT_TRUE(range);
  EXPECT_EQ(range->code().value(), ERANGE);
}

TEST(parse_integer, a_base_outside_2_to_36_is_an_invalid_argument) {
  EXPECT_THROW(parse<int>("1", 1), std::invalid_argument);
  EXPECT_THROW(parse<int>("1", 37), std::invalid_argument);
  EXPECT_THROW(parse<int>("1", 0), std::invalid_argument);
}

template <class T>
auto bits(T value) {
  if constexpr (sizeof(T) == 8)
    return std::bit_cast<std::uint64_t>(value);
  else
    return std::bit_cast<std::uint32_t>(value);
}

TEST(parse_floating, zeros_keep_their_sign) {
  EXPECT_EQ(bits(parse<double>("0")), bits(0.0));
  EXPECT_EQ(bits(parse<double>("-0")), bits(-0.0));
  EXPECT_EQ(bits(parse<double>("-0.0e10")), bits(-0.0));
  EXPECT_EQ(bits(parse<double>("+0")), bits(0.0));
  EXPECT_EQ(bits(parse<float>("-0")), bits(-0.0f));
  EXPECT_EQ(bits(parse<double>("0e999999")), bits(0.0)) << "zero is never out of range";
}

TEST(parse_floating, the_nearest_value_ties_to_even) {
  EXPECT_EQ(bits(parse<double>("0.1")), 0x3fb999999999999aU);
  EXPECT_EQ(bits(parse<float>("0.1")), 0x3dcccccdU) << "read as a float, not through a double";
  // 2^53 + 1 lies halfway between two doubles: the even one, 2^53.
  EXPECT_EQ(parse<double>("9007199254740993"), 9007199254740992.0);
  EXPECT_EQ(parse<double>("9007199254740995"), 9007199254740996.0);
  // 1 + 2^-24 lies halfway between two floats: 1.
  EXPECT_EQ(parse<float>("1.000000059604644775390625"), 1.0f);
  EXPECT_EQ(parse<float>("1.000000059604644775390626"), std::nextafter(1.0f, 2.0f));
}

TEST(parse_floating, extremes_and_subnormals) {
  using d = std::numeric_limits<double>;
  EXPECT_EQ(parse<double>("1.7976931348623157e+308"), d::max());
  EXPECT_EQ(parse<double>("-1.7976931348623157e308"), d::lowest());
  EXPECT_EQ(parse<double>("1.7976931348623158e+308"), d::max()) << "below the halfway point";
  EXPECT_EQ(parse<double>("2.2250738585072014e-308"), d::min());
  EXPECT_EQ(parse<double>("5e-324"), d::denorm_min());
  EXPECT_EQ(parse<double>("3e-324"), d::denorm_min()) << "rounds up to the smallest subnormal";
  EXPECT_EQ(parse<double>("-4.9406564584124654e-324"), -d::denorm_min());
  EXPECT_EQ(parse<double>("2.225073858507201e-308"), std::nextafter(d::min(), 0.0));
  using f = std::numeric_limits<float>;
  EXPECT_EQ(parse<float>("3.4028235e+38"), f::max());
  EXPECT_EQ(parse<float>("1.1754944e-38"), f::min());
  EXPECT_EQ(parse<float>("1e-45"), f::denorm_min());
  EXPECT_EQ(parse<float>("-1.4e-45"), -f::denorm_min());
}

TEST(parse_floating, overflow_and_underflow_to_zero_are_out_of_range) {
  for (auto text : {"1.7976931348623159e+308", "1e309", "-1e400", "1e-400", "2e-324", "-2e-324",
                    "1e99999999999999999999"}) {
    auto e = refusal<double>(text);
    ASSERT_TRUE(e) << text;
    EXPECT_EQ(e->code().value(), ERANGE) << text;
    EXPECT_EQ(e->reason(), "out of range") << text;
  }
  for (auto text : {"3.4028236e+38", "1e39", "1e-46", "5e-324"}) {
    auto e = refusal<float>(text);
    ASSERT_TRUE(e) << text;
    EXPECT_EQ(e->code().value(), ERANGE) << text;
  }
}

TEST(parse_floating, infinities_and_nans_as_print_writes_them_and_in_other_spellings) {
  double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(parse<double>("inf"), inf);
  EXPECT_EQ(parse<double>("-inf"), -inf);
  EXPECT_EQ(parse<double>("+inf"), inf);
  EXPECT_EQ(parse<double>("Infinity"), inf);
  EXPECT_EQ(parse<double>("-INF"), -inf);
  EXPECT_EQ(parse<float>("inf"), std::numeric_limits<float>::infinity());
  for (auto text : {"nan", "NaN", "nan(123)", "+nan"}) {
    double x = parse<double>(text);
    EXPECT_TRUE(std::isnan(x) && !std::signbit(x)) << text;
  }
  double negative = parse<double>("-nan");
  EXPECT_TRUE(std::isnan(negative) && std::signbit(negative));
  float negative_float = parse<float>("-nan");
  EXPECT_TRUE(std::isnan(negative_float) && std::signbit(negative_float));
}

TEST(parse_floating, malformed_text_is_refused_with_einval) {
  for (auto text : {"",      "-",     "+",    ".",    "-.",   "e5",   "1e",    "1e+", "1..2",
                    "1.2.3", "0x1p3", "0x10", "1,5",  " 1.5", "1.5 ", "1.5\n", "+-1", "++1",
                    "--1",   "infx",  "in",   "nanx", "nan(", "1f",   "1.5d",  "١"}) {
    auto e = refusal<double>(text);
    ASSERT_TRUE(e) << text;
    EXPECT_EQ(e->code().value(), EINVAL) << text;
    EXPECT_EQ(e->reason(), "expected a decimal number, inf or nan") << text;
    EXPECT_TRUE(refusal<float>(text)) << text;
  }
}

TEST(parse_floating, forms_strtod_also_takes) {
  EXPECT_EQ(parse<double>(".5"), 0.5);
  EXPECT_EQ(parse<double>("5."), 5.0);
  EXPECT_EQ(parse<double>("1E3"), 1000.0);
  EXPECT_EQ(parse<double>("+1.5e-3"), 0.0015);
  EXPECT_EQ(parse<double>("000123.4500"), 123.45);
}

// --- parse_error -----------------------------------------------------------

TEST(parse_error, names_the_type_the_text_and_the_reason) {
  auto e = refusal<std::int32_t>("3000000000");
  ASSERT_TRUE(e);
  EXPECT_EQ(std::string(e->what()), "sluice: parse int32 \"3000000000\": out of range");
  EXPECT_EQ(e->type(), "int32");
  EXPECT_EQ(e->quoted_text(), "\"3000000000\"");
  EXPECT_EQ(e->line(), 0u);
  EXPECT_EQ(e->path(), "");
  auto bad = refusal<double>("1.5x");
  ASSERT_TRUE(bad);
  EXPECT_EQ(std::string(bad->what()),
            "sluice: parse double \"1.5x\": expected a decimal number, inf or nan");
  const std::system_error& base = *bad;
  EXPECT_EQ(base.code(), std::error_code(EINVAL, std::generic_category()));
}

static_assert(std::is_nothrow_copy_constructible_v<parse_error>,
              "an exception's copy must not throw");

TEST(parse_error, names_each_type_by_sign_and_width) {
  EXPECT_EQ(refusal<signed char>("x")->type(), "int8");
  EXPECT_EQ(refusal<unsigned char>("x")->type(), "uint8");
  EXPECT_EQ(refusal<short>("x")->type(), "int16");
  EXPECT_EQ(refusal<unsigned short>("x")->type(), "uint16");
  EXPECT_EQ(refusal<unsigned>("x")->type(), "uint32");
  EXPECT_EQ(refusal<long>("x")->type(), "int" + std::to_string(8 * sizeof(long)));
  EXPECT_EQ(refusal<unsigned long long>("x")->type(), "uint64");
  EXPECT_EQ(refusal<float>("x")->type(), "float");
}

TEST(parse_error, escapes_quotes_backslashes_and_bytes_outside_printable_ascii) {
  auto e = refusal<int>(std::string_view("a\"b\\c\n\x01\xff\0", 9));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->quoted_text(), R"("a\"b\\c\x0a\x01\xff\x00")");
  EXPECT_EQ(std::string(e->what()),
            R"(sluice: parse int32 "a\"b\\c\x0a\x01\xff\x00": expected a decimal integer)");
}

TEST(parse_error, cuts_a_long_text_and_says_its_length) {
  std::string digits(300, '7');
  auto e = refusal<int>(digits);
  ASSERT_TRUE(e);
  EXPECT_EQ(std::string(e->what()),
            "sluice: parse int32 \"" + std::string(48, '7') + "...\" (300 bytes): out of range");
  std::string sixty_four(64, '1');
  auto kept = refusal<int>(sixty_four);
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->quoted_text(), '"' + sixty_four + '"') << "64 bytes are quoted whole";
}

TEST(parse_error, located_says_where_the_text_was_read) {
  auto e = refusal<int>("12x");
  ASSERT_TRUE(e);
  parse_error where = e->located("data.csv", 7, 4096);
  EXPECT_EQ(std::string(where.what()),
            "sluice: parse int32 \"12x\" in 'data.csv' at line 7, offset 4096: "
            "expected a decimal integer");
  EXPECT_EQ(where.code(), e->code());
  EXPECT_EQ(where.type(), "int32");
  EXPECT_EQ(where.reason(), e->reason());
  EXPECT_EQ(where.path(), "data.csv");
  EXPECT_EQ(where.line(), 7u);
  EXPECT_EQ(where.offset(), 4096u);
  EXPECT_EQ(std::string(e->located("", 3, 10).what()),
            "sluice: parse int32 \"12x\" at line 3, offset 10: expected a decimal integer");
}

}  // namespace
