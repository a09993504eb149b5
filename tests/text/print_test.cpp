// writer::print: integers like std::to_chars, floating point in the shortest
// form that reads back to the same bits.
#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <sluice/sluice.hpp>
#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::writer;

using print_test = dir_test;

template <class T>
std::string to_chars_text(T value) {
  char text[64];
  auto result = std::to_chars(text, text + sizeof text, value);
  return std::string(text, result.ptr);
}

// Prints min, max, 0 and -1 (or 1) of T, each through a writer whose buffer
// is smaller than the longest number, and returns what the file holds.
template <class T>
void add_extremes(writer& out, std::string& model) {
  for (T value : {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), T{0},
                  static_cast<T>(std::numeric_limits<T>::is_signed ? -1 : 1)}) {
    out.print(value);
    out.put(' ');
    model += to_chars_text(value) + ' ';
  }
}

TEST_F(print_test, integer_extremes_of_every_type_match_to_chars) {
  for (std::size_t buffer_size : {1u, 7u, 4096u}) {
    SCOPED_TRACE(buffer_size);
    auto path = dir / "ints";
    std::string model;
    {
      writer out(path, {.buffer_size = buffer_size});
      add_extremes<signed char>(out, model);
      add_extremes<unsigned char>(out, model);
      add_extremes<short>(out, model);
      add_extremes<unsigned short>(out, model);
      add_extremes<int>(out, model);
      add_extremes<unsigned>(out, model);
      add_extremes<long>(out, model);
      add_extremes<unsigned long>(out, model);
      add_extremes<long long>(out, model);
      add_extremes<unsigned long long>(out, model);
      add_extremes<std::int8_t>(out, model);
      add_extremes<std::uint16_t>(out, model);
      add_extremes<std::int32_t>(out, model);
      add_extremes<std::uint64_t>(out, model);
#ifdef __SIZEOF_INT128__
      __extension__ typedef __int128 int128;
      __extension__ typedef unsigned __int128 uint128;
      if constexpr (std::integral<int128>) {
        add_extremes<int128>(out, model);
        add_extremes<uint128>(out, model);
      }
#endif
      EXPECT_EQ(out.tell(), model.size());
      out.close();
    }
    EXPECT_EQ(read_all(path), model);
  }
  // The literal forms, so that a shared mistake with to_chars would show.
  auto path = dir / "literal";
  writer out(path);
  out.print(std::numeric_limits<std::int64_t>::min());
  out.put(' ');
  out.print(std::numeric_limits<std::uint64_t>::max());
  out.put(' ');
  out.print(std::numeric_limits<std::int8_t>::min());
  out.close();
  EXPECT_EQ(read_all(path), "-9223372036854775808 18446744073709551615 -128");
}

TEST_F(print_test, doubles_round_trip_through_strtod) {
  std::mt19937_64 random(20240601);
  std::vector<double> values = {0.0,
                                -0.0,
                                1.0,
                                -1.0,
                                0.1,
                                1e300,
                                -1e-300,
                                5e-324,
                                -5e-324,
                                2.2250738585072014e-308,
                                std::numeric_limits<double>::max(),
                                std::numeric_limits<double>::lowest(),
                                std::numeric_limits<double>::denorm_min(),
                                123456789012345680000.0};
  while (values.size() < 400) {
    double value = std::bit_cast<double>(random());
    if (!std::isnan(value)) values.push_back(value);
  }
  auto path = dir / "doubles";
  {
    writer out(path, {.buffer_size = 5});
    for (double value : values) {
      out.print(value);
      out.put('\n');
    }
    out.close();
  }
  std::string text = read_all(path);
  const char* cursor = text.c_str();
  for (double value : values) {
    char* end = nullptr;
    double back = std::strtod(cursor, &end);
    ASSERT_NE(end, cursor);
    ASSERT_EQ(*end, '\n');
    EXPECT_EQ(std::bit_cast<std::uint64_t>(back), std::bit_cast<std::uint64_t>(value))
        << std::string(cursor, static_cast<const char*>(end));
    EXPECT_EQ(std::string(cursor, static_cast<const char*>(end)),
              to_chars_text(value));  // and the shortest form
    cursor = end + 1;
  }
  EXPECT_EQ(*cursor, '\0');
}

TEST_F(print_test, floats_round_trip_through_strtof) {
  std::mt19937 random(7);
  std::vector<float> values = {0.0f, -0.0f, 0.1f, 3.4028235e38f, -1.17549435e-38f, 1e-45f};
  while (values.size() < 400) {
    float value = std::bit_cast<float>(static_cast<std::uint32_t>(random()));
    if (!std::isnan(value)) values.push_back(value);
  }
  auto path = dir / "floats";
  {
    writer out(path, {.buffer_size = 3});
    for (float value : values) {
      out.print(value);
      out.put('\n');
    }
    out.close();
  }
  std::string text = read_all(path);
  const char* cursor = text.c_str();
  for (float value : values) {
    char* end = nullptr;
    float back = std::strtof(cursor, &end);
    ASSERT_NE(end, cursor);
    ASSERT_EQ(*end, '\n');
    EXPECT_EQ(std::bit_cast<std::uint32_t>(back), std::bit_cast<std::uint32_t>(value))
        << std::string(cursor, static_cast<const char*>(end));
    EXPECT_EQ(std::string(cursor, static_cast<const char*>(end)), to_chars_text(value));
    cursor = end + 1;
  }
}

TEST_F(print_test, special_values_are_inf_and_nan) {
  auto path = dir / "special";
  writer out(path, {.buffer_size = 2});
  constexpr double inf = std::numeric_limits<double>::infinity();
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  out.print(inf);
  out.put(' ');
  out.print(-inf);
  out.put(' ');
  out.print(nan);
  out.put(' ');
  out.print(std::copysign(nan, -1.0));
  out.put(' ');
  out.print(std::numeric_limits<float>::infinity());
  out.put(' ');
  out.print(-std::numeric_limits<float>::infinity());
  out.put(' ');
  out.print(std::numeric_limits<float>::quiet_NaN());
  out.close();
  EXPECT_EQ(read_all(path), "inf -inf nan -nan inf -inf nan");
}

}  // namespace
