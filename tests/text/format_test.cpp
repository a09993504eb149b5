// writer::print with a format (<sluice/format.hpp>): bases, precisions,
// padding, bool and char; every floating value reads back to the same bits.
#include <gtest/gtest.h>

#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <sluice/sluice.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::writer;

using format_test = dir_test;

// Prints through a writer with a tiny buffer (so that every reserve flushes)
// and returns the file's content.
template <class Body>
std::string printed(const std::filesystem::path& path, Body&& body, std::size_t buffer = 3) {
  {
    writer out(path, {.buffer_size = buffer});
    body(out);
    out.close();
  }
  return read_all(path);
}

// An independent reference: repeated division, lowercase digits.
template <class T>
std::string in_base(T value, unsigned base) {
  bool negative = false;
  unsigned long long magnitude;
  if constexpr (std::is_signed_v<T>) {
    negative = value < 0;
    magnitude = negative ? 0ull - static_cast<unsigned long long>(value)
                         : static_cast<unsigned long long>(value);
  } else {
    magnitude = value;
  }
  std::string digits;
  do {
    digits.insert(digits.begin(), "0123456789abcdefghijklmnopqrstuvwxyz"[magnitude % base]);
    magnitude /= base;
  } while (magnitude != 0);
  return (negative ? "-" : "") + digits;
}

template <class T>
void check_extremes_in_bases(const std::filesystem::path& path) {
  std::string model;
  std::string text = printed(path, [&](writer& out) {
    for (T value : {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), T{0}, T{1}}) {
      for (unsigned base : {2u, 8u, 10u, 16u, 36u}) {
        out.print(value, sluice::base(static_cast<int>(base)));
        out.put(' ');
        model += in_base(value, base) + ' ';
      }
    }
  });
  EXPECT_EQ(text, model);
}

TEST_F(format_test, integer_extremes_of_every_type_in_every_base) {
  auto path = dir / "ints";
  check_extremes_in_bases<signed char>(path);
  check_extremes_in_bases<unsigned char>(path);
  check_extremes_in_bases<short>(path);
  check_extremes_in_bases<unsigned short>(path);
  check_extremes_in_bases<int>(path);
  check_extremes_in_bases<unsigned>(path);
  check_extremes_in_bases<long>(path);
  check_extremes_in_bases<unsigned long>(path);
  check_extremes_in_bases<long long>(path);
  check_extremes_in_bases<unsigned long long>(path);
}

TEST_F(format_test, integer_formats_and_padding_as_documented) {
  std::string text = printed(dir / "f", [](writer& out) {
    out.print(255, sluice::hex);
    out.put('|');
    out.print(255, sluice::hex_upper.pad(6, '0'));
    out.put('|');
    out.print(-5, sluice::dec.pad(4, '0'));
    out.put('|');
    out.print(5u, sluice::bin);
    out.put('|');
    out.print(8, sluice::oct);
    out.put('|');
    out.print(-255, sluice::hex);
    out.put('|');
    out.print(42, sluice::dec.pad(5));
    out.put('|');
    out.print(42, sluice::dec.pad(5, '.', sluice::align::left));
    out.put('|');
    out.print(42, sluice::dec.pad(6, '_', sluice::align::center));
    out.put('|');
    out.print(123456, sluice::dec.pad(3, '0'));
    out.put('|');
    out.print(std::uint64_t{0xdeadbeefcafe}, sluice::hex_upper.pad(20, ' '));
    out.put('|');
    out.print(35, sluice::base(36));
  });
  EXPECT_EQ(text, "ff|0000FF|-005|101|10|-ff|   42|42...|__42__|123456|        DEADBEEFCAFE|z");
}

TEST(format, base_outside_2_to_36_throws) {
  EXPECT_THROW(sluice::base(1), std::invalid_argument);
  EXPECT_THROW(sluice::base(37), std::invalid_argument);
  EXPECT_EQ(sluice::base(7).base, 7);
}

TEST_F(format_test, padded_text) {
  std::string text = printed(dir / "t", [](writer& out) {
    out.print("id", sluice::pad(6));
    out.put('|');
    out.print("name", sluice::pad(8, '.', sluice::align::left));
    out.put('|');
    out.print("mid", sluice::pad(8, '-', sluice::align::center));
    out.put('|');
    out.print("too long", sluice::pad(3));
    out.put('|');
    out.print("", sluice::pad(2, '#'));
    out.put('|');
    out.print(std::string(5000, 'w'), sluice::pad(5010, ' ', sluice::align::left));
  });
  EXPECT_EQ(text, "    id|name....|--mid---|too long|##|" + std::string(5000, 'w') +
                      std::string(10, ' '));
}

// Padding that needs no fill reserves nothing: a closed writer refuses the
// text as write() does (the asan preset also checks no null room is filled).
TEST_F(format_test, padded_text_to_a_closed_writer_is_refused) {
  writer out(dir / "t");
  out.close();
  auto e = thrown([&] { out.print("abc", sluice::pad(2)); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EBADF);
  e = thrown([&] { out.print("abc", sluice::pad(5)); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EBADF);
}

TEST_F(format_test, bool_and_char) {
  std::string text = printed(dir / "b", [](writer& out) {
    out.print(true);
    out.print(false);
    out.print('x');
    out.print('\0');
  });
  EXPECT_EQ(text, std::string("truefalsex\0", 11));
}

// The values whose text is hardest to get right.
std::vector<double> double_edges() {
  std::vector<double> values = {0.0,
                                -0.0,
                                std::numeric_limits<double>::min(),
                                -std::numeric_limits<double>::min(),
                                std::numeric_limits<double>::max(),
                                std::numeric_limits<double>::lowest(),
                                std::numeric_limits<double>::denorm_min(),
                                -std::numeric_limits<double>::denorm_min(),
                                std::nextafter(std::numeric_limits<double>::min(), 0.0),
                                std::numeric_limits<double>::epsilon(),
                                9007199254740992.0,  // 2^53
                                9007199254740994.0,  // 2^53 + 2
                                18446744073709551616.0,
                                9223372036854775807.0,
                                0.1,
                                0.5,
                                2.5,
                                1.0 / 3.0};
  for (int e = -323; e <= 308; ++e)
    values.push_back(std::strtod(("1e" + std::to_string(e)).c_str(), nullptr));
  for (int e = 53; e < 1024; e += 7) values.push_back(std::ldexp(1.0, e) + std::ldexp(1.0, e - 52));
  return values;
}

std::vector<float> float_edges() {
  std::vector<float> values = {0.0f,
                               -0.0f,
                               std::numeric_limits<float>::min(),
                               std::numeric_limits<float>::max(),
                               std::numeric_limits<float>::lowest(),
                               std::numeric_limits<float>::denorm_min(),
                               -std::numeric_limits<float>::denorm_min(),
                               std::nextafter(std::numeric_limits<float>::min(), 0.0f),
                               16777216.0f,
                               16777218.0f,
                               0.1f,
                               1.0f / 3.0f};
  for (int e = -45; e <= 38; ++e)
    values.push_back(std::strtof(("1e" + std::to_string(e)).c_str(), nullptr));
  return values;
}

// Prints each value on its own line and checks that `parse` reads each back
// to the identical bits.
template <class T, class Bits, class Parse>
void check_round_trip(const std::filesystem::path& path, const std::vector<T>& values,
                      Parse parse) {
  std::string text = printed(
      path,
      [&](writer& out) {
        for (T value : values) {
          out.print(value);
          out.put('\n');
        }
      },
      4096);
  const char* cursor = text.c_str();
  std::size_t wrong = 0;
  for (T value : values) {
    char* end = nullptr;
    T back = parse(cursor, &end);
    ASSERT_EQ(*end, '\n') << "after " << cursor;
    if (std::bit_cast<Bits>(back) != std::bit_cast<Bits>(value) && ++wrong < 10)
      ADD_FAILURE() << std::string(cursor, static_cast<const char*>(end));
    cursor = end + 1;
  }
  EXPECT_EQ(*cursor, '\0');
  EXPECT_EQ(wrong, 0u);
}

TEST_F(format_test, edge_doubles_read_back_to_identical_bits) {
  check_round_trip<double, std::uint64_t>(
      dir / "d", double_edges(), [](const char* s, char** e) { return std::strtod(s, e); });
}

TEST_F(format_test, edge_floats_read_back_to_identical_bits) {
  check_round_trip<float, std::uint32_t>(dir / "f", float_edges(),
                                         [](const char* s, char** e) { return std::strtof(s, e); });
}

TEST_F(format_test, random_doubles_read_back_to_identical_bits) {
  std::mt19937_64 random(91);
  std::vector<double> values;
  while (values.size() < 300000) {
    double value = std::bit_cast<double>(random());
    if (!std::isnan(value)) values.push_back(value);
  }
  check_round_trip<double, std::uint64_t>(
      dir / "d", values, [](const char* s, char** e) { return std::strtod(s, e); });
}

TEST_F(format_test, random_floats_read_back_to_identical_bits) {
  std::mt19937 random(92);
  std::vector<float> values;
  while (values.size() < 300000) {
    float value = std::bit_cast<float>(static_cast<std::uint32_t>(random()));
    if (!std::isnan(value)) values.push_back(value);
  }
  check_round_trip<float, std::uint32_t>(dir / "f", values,
                                         [](const char* s, char** e) { return std::strtof(s, e); });
}

// printf's text for `value` with `conversion` ('f', 'e' or 'g'). A NaN is
// "[-]nan" as C's printf writes it, with the sign bit shown (glibc does, and
// so does std::to_chars; MinGW's printf leaves the minus sign out).
std::string printf_text(double value, char conversion, int precision) {
  if (std::isnan(value)) return std::signbit(value) ? "-nan" : "nan";
  char spec[] = {'%', '.', '*', conversion, '\0'};
  int size = std::snprintf(nullptr, 0, spec, precision, value);
  std::string text(static_cast<std::size_t>(size), '\0');
  std::snprintf(text.data(), text.size() + 1, spec, precision, value);
  return text;
}

TEST_F(format_test, fixed_scientific_general_match_printf) {
  std::mt19937_64 random(93);
  std::vector<double> values = double_edges();
  for (int i = 0; i < 3000; ++i) values.push_back(std::bit_cast<double>(random()));
  for (int i = 0; i < 3000; ++i)
    values.push_back(
        static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(random()))));
  values.push_back(std::numeric_limits<double>::infinity());
  values.push_back(-std::numeric_limits<double>::infinity());
  values.push_back(std::numeric_limits<double>::quiet_NaN());
  values.push_back(-std::numeric_limits<double>::quiet_NaN());
  std::string model;
  std::string text = printed(
      dir / "p",
      [&](writer& out) {
        int n = 0;
        for (double value : values) {
          int precision = n++ % 20;
          out.print(value, sluice::fixed(precision));
          out.print(value, sluice::scientific(precision));
          out.print(value, sluice::general(precision));
          out.put('\n');
          model += printf_text(value, 'f', precision) + printf_text(value, 'e', precision) +
                   printf_text(value, 'g', precision) + '\n';
        }
      },
      64);
  EXPECT_EQ(text, model);
}

TEST_F(format_test, floating_formats_and_padding_as_documented) {
  std::string text = printed(dir / "x", [](writer& out) {
    out.print(3.14159, sluice::fixed(2));
    out.put('|');
    out.print(1234.56, sluice::scientific(3));
    out.put('|');
    out.print(0.0001, sluice::general(6));
    out.put('|');
    out.print(2.5, sluice::shortest.pad(6, '*', sluice::align::left));
    out.put('|');
    out.print(-1.5f, sluice::fixed(1).pad(7, '0'));
    out.put('|');
    out.print(0.1f, sluice::fixed(10));
    out.put('|');
    out.print(1e300, sluice::fixed(0));
    out.put('|');
    out.print(-std::numeric_limits<double>::infinity(), sluice::fixed(2).pad(6));
    out.put('|');
    out.print(std::numeric_limits<float>::quiet_NaN(), sluice::scientific(3));
  });
  EXPECT_EQ(text, "3.14|1.235e+03|0.0001|2.5***|-0001.5|0.1000000015|" +
                      printf_text(1e300, 'f', 0) + "|  -inf|nan");
}

TEST_F(format_test, a_precision_larger_than_the_buffer_still_prints_exactly) {
  std::string text = printed(dir / "big", [](writer& out) {
    out.print(std::numeric_limits<double>::denorm_min(), sluice::fixed(1100));
    out.print(-std::numeric_limits<double>::max(), sluice::fixed(3));
  });
  EXPECT_EQ(text, printf_text(std::numeric_limits<double>::denorm_min(), 'f', 1100) +
                      printf_text(-std::numeric_limits<double>::max(), 'f', 3));
}

TEST_F(format_test, a_zero_fill_pads_infinities_and_nans_with_spaces) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  std::string text = printed(dir / "z", [](writer& out) {
    out.print(-inf, sluice::fixed(2).pad(8, '0'));
    out.put('|');
    out.print(std::numeric_limits<double>::quiet_NaN(), sluice::shortest.pad(8, '0'));
    out.put('|');
    out.print(inf, sluice::scientific(1).pad(6, '0', sluice::align::left));
    out.put('|');
    out.print(-2.5, sluice::fixed(1).pad(6, '0'));  // finite: zeros after the sign
  });
  EXPECT_EQ(text, "    -inf|     nan|inf   |-002.5");
}

TEST_F(format_test, formats_made_by_hand_are_held_to_the_same_rules) {
  std::string text = printed(dir / "h", [](writer& out) {
    out.print(1e300, sluice::float_format{sluice::float_style::fixed, -1});
    out.put('|');
    out.print(2.75, sluice::float_format{sluice::float_style::scientific, -5});
  });
  EXPECT_EQ(text, printf_text(1e300, 'f', 0) + "|" + printf_text(2.75, 'e', 0));
  auto path = dir / "b";
  writer out(path);
  for (int bad : {0, 1, 37, -16}) {
    EXPECT_THROW(out.print(255, sluice::int_format{bad}), std::invalid_argument) << bad;
    EXPECT_EQ(out.tell(), 0u);
  }
}

// print reserves what the value can need, not what any value could: a
// buffer of 100 bytes stays one for numbers that fit in it.
TEST_F(format_test, a_number_that_fits_does_not_enlarge_a_small_buffer) {
  auto path = dir / "s";
  writer out(path, {.buffer_size = 100});
  out.print(1.25, sluice::fixed(2));
  out.print(-123456789.5, sluice::fixed(9));
  out.print(std::numeric_limits<double>::max(), sluice::scientific(17));
  out.print(-std::numeric_limits<double>::denorm_min());
  out.print(std::numeric_limits<std::int64_t>::min(), sluice::dec);
  out.print(std::numeric_limits<std::uint64_t>::max(), sluice::oct);
  EXPECT_EQ(out.buffer_size(), 100u);
  out.print(1e300, sluice::fixed(2));  // 304 characters: more than the buffer
  EXPECT_GE(out.buffer_size(), 304u);
  out.close();
  EXPECT_EQ(read_all(path), "1.25" + printf_text(-123456789.5, 'f', 9) +
                                printf_text(std::numeric_limits<double>::max(), 'e', 17) +
                                "-5e-324-9223372036854775808" + "1777777777777777777777" +
                                printf_text(1e300, 'f', 2));
}

}  // namespace
