// sluice::writer's binary output: put of a byte, write(data, size), spans of
// any trivially copyable type, and put_le / put_be for every integer width,
// float and double, across buffer boundaries.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <sluice/sluice.hpp>
#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::writer;

using writer_binary = dir_test;

// The bytes listed, as a string.
std::string bytes(std::initializer_list<unsigned> list) {
  std::string out;
  for (unsigned b : list) out.push_back(static_cast<char>(b));
  return out;
}

// `value`'s low `width` bytes, least significant first, by arithmetic (not
// by the host's memory order).
std::string little_endian(std::uint64_t value, std::size_t width) {
  std::string out;
  for (std::size_t i = 0; i < width; ++i)
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  return out;
}

std::string big_endian(std::uint64_t value, std::size_t width) {
  std::string out = little_endian(value, width);
  return {out.rbegin(), out.rend()};
}

TEST_F(writer_binary, put_takes_every_byte_type) {
  auto path = dir / "out.bin";
  writer out(path);
  out.put('a');
  out.put(std::byte{0xff});
  out.put(static_cast<unsigned char>(0x80));
  out.put(static_cast<std::uint8_t>(0));
  out.put(static_cast<signed char>(-1));
  out.put(static_cast<std::int8_t>(0x7f));
  out.close();
  EXPECT_EQ(read_all(path), bytes({'a', 0xff, 0x80, 0x00, 0xff, 0x7f}));
}

TEST_F(writer_binary, write_of_a_pointer_and_a_size_writes_every_byte_nuls_included) {
  auto path = dir / "out.bin";
  const std::string data = bytes({1, 0, 2, 0, 0, 3});
  const void* raw = data.data();
  writer out(path);
  out.write(raw, data.size());
  out.write(data.data(), 2);  // a const char* with a size is binary too
  out.write(raw, 0);
  out.close();
  EXPECT_EQ(read_all(path), data + data.substr(0, 2));
}

TEST_F(writer_binary, a_const_char_array_is_written_up_to_its_nul_and_never_past_its_end) {
  // What follows the NUL-less magic in memory: a C string's search would
  // run on into it (to "SPCH!!!").
  struct header {
    char magic[4];
    char next[4];
  };
  static constexpr header h = {{'S', 'P', 'C', 'H'}, {'!', '!', '!', '\0'}};
  const char padded[8] = "ab";
  auto path = dir / "out.bin";
  writer out(path);
  out.write(h.magic);  // no NUL: written whole
  out.write(padded);
  out.write("literal");
  out.write("");
  out.close();
  EXPECT_EQ(read_all(path), "SPCHabliteral");
}

TEST_F(writer_binary, spans_of_any_trivially_copyable_type_write_their_bytes_in_host_order) {
  struct pair {
    std::uint16_t a;
    std::uint16_t b;
  };
  const std::vector<std::uint32_t> words{0x01020304, 0xa0b0c0d0};
  const std::array<unsigned char, 3> small{0, 0xfe, 7};
  const pair pairs[2] = {{1, 2}, {3, 4}};
  auto path = dir / "out.bin";
  writer out(path);
  out.write(std::span(words));
  out.write(std::span(small));  // a fixed extent
  out.write(std::span<const pair>(pairs));
  out.write(std::as_bytes(std::span(words)).subspan(1, 2));  // std::span<const std::byte> as before
  out.close();

  std::string expected(reinterpret_cast<const char*>(words.data()), 8);
  expected += bytes({0, 0xfe, 7});
  expected.append(reinterpret_cast<const char*>(pairs), sizeof pairs);
  expected += expected.substr(1, 2);
  EXPECT_EQ(read_all(path), expected);
}

// Each width in both orders, with a value whose every byte differs, and a
// negative one whose sign must land in the right byte.
template <class T>
void put_both(writer& out, std::string& expected, T value) {
  out.put_le(value);
  out.put_be(value);
  auto bits = static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<T>>(value));
  expected += little_endian(bits, sizeof(T)) + big_endian(bits, sizeof(T));
}

template <class T>
void put_every_value(writer& out, std::string& expected) {
  using U = std::make_unsigned_t<T>;
  put_both(out, expected, static_cast<T>(static_cast<U>(0x8877665544332211ull)));
  put_both(out, expected, static_cast<T>(static_cast<U>(0x0102030405060708ull)));
  put_both(out, expected, std::numeric_limits<T>::max());
  put_both(out, expected, std::numeric_limits<T>::min());
  if constexpr (std::is_signed_v<T>) put_both(out, expected, static_cast<T>(-2));
}

// Every integer width, both orders, in a buffer of `buffer_size` bytes: a
// size that does not divide the values makes them straddle the buffer's end.
std::string put_every_integer(writer& out) {
  std::string expected;
  put_every_value<char>(out, expected);
  put_every_value<std::int8_t>(out, expected);
  put_every_value<std::uint8_t>(out, expected);
  put_every_value<std::int16_t>(out, expected);
  put_every_value<std::uint16_t>(out, expected);
  put_every_value<std::int32_t>(out, expected);
  put_every_value<std::uint32_t>(out, expected);
  put_every_value<std::int64_t>(out, expected);
  put_every_value<std::uint64_t>(out, expected);
  put_every_value<long long>(out, expected);
  put_every_value<unsigned long>(out, expected);
  put_every_value<char16_t>(out, expected);
  put_every_value<char32_t>(out, expected);
  put_every_value<wchar_t>(out, expected);
  return expected;
}

TEST_F(writer_binary, put_le_and_put_be_write_every_integer_width_in_their_order) {
  auto path = dir / "out.bin";
  writer out(path);
  std::string expected = put_every_integer(out);
  EXPECT_EQ(out.tell(), expected.size());
  out.close();
  EXPECT_EQ(read_all(path), expected);
}

TEST_F(writer_binary, fixed_width_values_straddling_the_buffers_end_are_whole) {
  for (std::size_t buffer_size : {1u, 3u, 7u, 13u}) {
    SCOPED_TRACE(buffer_size);
    auto path = dir / ("out-" + std::to_string(buffer_size));
    writer out(path, {.buffer_size = buffer_size});
    // Shift the phase by one byte each round, so that each width meets the
    // buffer's end at every offset.
    std::string expected;
    for (int round = 0; round < 8; ++round) {
      out.put('.');
      expected += '.';
      expected += put_every_integer(out);
    }
    EXPECT_EQ(out.tell(), expected.size());
    out.close();
    EXPECT_EQ(read_all(path), expected);
  }
}

TEST_F(writer_binary, floats_are_written_as_their_ieee_bits) {
  auto path = dir / "out.bin";
  writer out(path, {.buffer_size = 5});
  out.put_le(1.0f);
  out.put_be(1.0f);
  out.put_le(-0.0);
  out.put_be(-0.0);
  out.put_be(-2.5);
  out.put_le(std::numeric_limits<double>::infinity());
  // NaNs keep their sign and payload, a signalling one included.
  out.put_be(std::bit_cast<float>(0xffc00001u));
  out.put_le(std::bit_cast<float>(0x7f800001u));
  out.put_be(std::bit_cast<double>(0x7ff0000000000123ull));
  out.put_le(std::numeric_limits<double>::denorm_min());
  out.close();
  std::string expected =
      bytes({0x00, 0x00, 0x80, 0x3f}) + bytes({0x3f, 0x80, 0x00, 0x00}) +
      bytes({0, 0, 0, 0, 0, 0, 0, 0x80}) + bytes({0x80, 0, 0, 0, 0, 0, 0, 0}) +
      bytes({0xc0, 0x04, 0, 0, 0, 0, 0, 0}) + bytes({0, 0, 0, 0, 0, 0, 0xf0, 0x7f}) +
      bytes({0xff, 0xc0, 0x00, 0x01}) + bytes({0x01, 0x00, 0x80, 0x7f}) +
      bytes({0x7f, 0xf0, 0, 0, 0, 0, 0x01, 0x23}) + bytes({0x01, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_EQ(read_all(path), expected);
}

TEST_F(writer_binary, an_explicit_width_converts_the_value_first) {
  auto path = dir / "out.bin";
  writer out(path);
  out.put_le<std::uint16_t>(0x1234);
  out.put_be<std::int32_t>(-1);
  out.put_le<std::uint64_t>(7u);
  out.close();
  EXPECT_EQ(read_all(path), bytes({0x34, 0x12, 0xff, 0xff, 0xff, 0xff, 7, 0, 0, 0, 0, 0, 0, 0}));
}

}  // namespace
