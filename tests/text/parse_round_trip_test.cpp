// Every number writer::print writes parses back with sluice::parse and
// through a sluice::reader: random bit patterns of every type (seeded), and
// edge values, printed through a writer into a file in each form (shortest,
// full precision in scientific and general, fixed exact and fixed short,
// integers in every base), four to a line between commas, read back by
// reader::read_fields with fields::next<T>, by reader::parse<T> and by
// reader::read_number<T> (a line each in turn), and each field's text by
// parse<T>. Shortest, full precision
// and exact fixed give back the same bits (NaNs: a NaN of the same sign); a
// fixed text too short to be exact gives the value nearest it, which
// strtod/strtof (correctly rounded in glibc, C locale) say too.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <sluice/sluice.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::parse;
using sluice::writer;

// Random values per type and form: a few seconds in all in release, fewer
// under the sanitizers, which make each parse many times slower.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr std::size_t random_count = 20'000;
#else
constexpr std::size_t random_count = 200'000;
#endif

using round_trip = dir_test;

template <class T>
using bits_of = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;

template <class T>
bits_of<T> bits(T value) {
  return std::bit_cast<bits_of<T>>(value);
}

// `count` values of T from random bit patterns (seeded by the type's size,
// so that each run checks the same ones).
template <class T>
std::vector<T> random_values(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 random(seed * 1000 + sizeof(T));
  std::vector<T> values(count);
  for (T& value : values) {
    if constexpr (std::is_floating_point_v<T>)
      value = std::bit_cast<T>(static_cast<bits_of<T>>(random()));
    else
      value = static_cast<T>(random());
  }
  return values;
}

// Values a line in the files the tests write.
constexpr std::size_t per_line = 4;

// What a file of printed values holds, read back: each field's text, and
// the value the reader's helpers made of it.
template <class T>
struct read_back {
  std::vector<std::string> texts;
  std::vector<T> values;
};

// The base value i is printed in: 10, or what `base_of` says.
using base_for = std::function<int(std::size_t)>;

// Each field's text in `all`: lines split at '\n', fields at ','.
std::vector<std::string> field_texts(const std::string& all) {
  std::vector<std::string> texts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= all.size(); ++i) {
    if (i == all.size() || all[i] == ',' || all[i] == '\n') {
      texts.push_back(all.substr(start, i - start));
      start = i + 1;
    }
  }
  return texts;
}

// The value of field i (base_of(i) for an integer) by fields::next<T>,
// reader::parse<T> of the field next() gives, or reader::read_number<T>
// up to `terminator`.
enum class way { next, parse, read_number };

template <class T>
T read_one(sluice::reader& in, sluice::fields* row, way how, char terminator, int base) {
  if constexpr (std::is_floating_point_v<T>) {
    if (how == way::next) return row->next<T>();
    if (how == way::parse) return in.parse<T>(*row->next());
    return in.read_number<T>(terminator);
  } else {
    if (how == way::next) return row->next<T>(base);
    if (how == way::parse) return in.parse<T>(*row->next(), base);
    return in.read_number<T>(terminator, base);
  }
}

// The file at `path` read back through a reader with a small buffer (lines
// straddle its refills), its lines in turn by fields::next<T>,
// reader::parse<T> and reader::read_number<T>, and each field's text.
template <class T>
read_back<T> read_fields(const std::filesystem::path& path, const base_for& base_of) {
  read_back<T> back;
  back.texts = field_texts(read_all(path));
  sluice::reader in(path, {.buffer_size = 4096});
  while (!in.eof()) {
    auto how = static_cast<way>(in.line_count() % 3);
    std::optional<sluice::fields> row;
    if (how != way::read_number) row = in.read_fields(',');
    for (std::size_t k = 0; k < per_line && back.values.size() < back.texts.size(); ++k) {
      std::size_t i = back.values.size();
      bool last = k + 1 == per_line || i + 1 == back.texts.size();
      back.values.push_back(read_one<T>(in, row ? &*row : nullptr, how, last ? '\n' : ',',
                                        base_of ? base_of(i) : 10));
    }
    if (row) {
      EXPECT_TRUE(row->done());
    }
  }
  return back;
}

// Each value printed by `print` through a writer, per_line to a line
// between commas, the last line without a newline, and the file read back.
template <class T>
read_back<T> printed(const std::filesystem::path& path, const std::vector<T>& values,
                     const std::function<void(writer&, T, std::size_t)>& print,
                     const base_for& base_of = {}) {
  {
    writer out(path);
    for (std::size_t i = 0; i < values.size(); ++i) {
      print(out, values[i], i);
      if (i + 1 < values.size()) out.put((i + 1) % per_line == 0 ? '\n' : ',');
    }
    out.close();
  }
  return read_fields<T>(path, base_of);
}

template <class T>
bool same_bits(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return std::isnan(b) && std::signbit(a) == std::signbit(b);
    return bits(a) == bits(b);
  } else {
    return a == b;
  }
}

// Each field parses back to the bits of its value (a NaN to a NaN of the
// same sign), by parse<T> and by the reader; stops at the first few
// mismatches.
template <class T>
void expect_same_bits(const std::vector<T>& values, const read_back<T>& back,
                      const base_for& base_of = {}) {
  ASSERT_EQ(back.texts.size(), values.size());
  ASSERT_EQ(back.values.size(), values.size());
  int failures = 0;
  for (std::size_t i = 0; i < values.size() && failures < 5; ++i) {
    T parsed;
    if constexpr (std::is_floating_point_v<T>)
      parsed = parse<T>(back.texts[i]);
    else
      parsed = parse<T>(back.texts[i], base_of ? base_of(i) : 10);
    bool same = same_bits(parsed, values[i]) && same_bits(back.values[i], values[i]);
    if (!same) ++failures;
    EXPECT_TRUE(same) << '"' << back.texts[i] << "\" read back as " << +parsed
                      << " by parse<T>, as " << +back.values[i] << " by the reader";
  }
}

// Each field parses to what strtod (strtof) makes of it, the value nearest
// the text, by parse<T> and by the reader.
template <class T>
void expect_nearest(const read_back<T>& back) {
  int failures = 0;
  for (std::size_t i = 0; i < back.texts.size() && failures < 5; ++i) {
    const std::string& text = back.texts[i];
    T parsed = parse<T>(text);
    T reference;
    if constexpr (std::is_same_v<T, float>)
      reference = std::strtof(text.c_str(), nullptr);
    else
      reference = std::strtod(text.c_str(), nullptr);
    bool same = std::isnan(reference)
                    ? std::isnan(parsed) && std::isnan(back.values[i])
                    : bits(parsed) == bits(reference) && bits(back.values[i]) == bits(reference);
    if (!same) ++failures;
    EXPECT_TRUE(same) << '"' << text << "\": " << parsed << " by parse<T>, " << back.values[i]
                      << " by the reader, instead of " << reference;
  }
}

// Full precision: max_digits10 significant digits always read back exactly.
template <class T>
constexpr int full_digits = std::numeric_limits<T>::max_digits10;

// The forms that hold every bit read back to the same bits: shortest, and
// full precision in scientific and general notation.
template <class T>
void check_full_forms(const std::filesystem::path& dir, const std::vector<T>& values) {
  expect_same_bits(values, printed<T>(dir / "shortest", values,
                                      [](writer& out, T x, std::size_t) { out.print(x); }));
  expect_same_bits(values,
                   printed<T>(dir / "scientific", values, [](writer& out, T x, std::size_t) {
                     out.print(x, sluice::scientific(full_digits<T> - 1));
                   }));
  expect_same_bits(values, printed<T>(dir / "general", values, [](writer& out, T x, std::size_t) {
                     out.print(x, sluice::general(full_digits<T>));
                   }));
}

template <class T>
void check_floating_forms(const std::filesystem::path& dir, const std::vector<T>& values) {
  SCOPED_TRACE(sizeof(T) == 8 ? "double" : "float");
  check_full_forms(dir, values);
  // Fixed with 0 to 19 digits: rarely exact, always the nearest value.
  expect_nearest<T>(printed<T>(dir / "fixed", values, [](writer& out, T x, std::size_t i) {
    out.print(x, sluice::fixed(static_cast<int>(i % 20)));
  }));
}

TEST_F(round_trip, random_doubles_in_every_form) {
  check_floating_forms(dir.path(), random_values<double>(random_count, 1));
}

TEST_F(round_trip, random_floats_in_every_form) {
  check_floating_forms(dir.path(), random_values<float>(random_count, 1));
}

// m * 2^-k with k digits after the point: fixed(k) writes it exactly.
template <class T>
void check_exact_fixed(const std::filesystem::path& dir) {
  constexpr int mantissa = std::numeric_limits<T>::digits;
  std::mt19937_64 random(42 + sizeof(T));
  std::vector<T> values(random_count);
  std::vector<int> places(random_count);
  for (std::size_t i = 0; i < values.size(); ++i) {
    auto m = static_cast<std::int64_t>(random() >> (64 - mantissa));
    places[i] = static_cast<int>(random() % 70);
    values[i] = std::ldexp(static_cast<T>(random() & 1 ? -m : m), -places[i]);
  }
  expect_same_bits(values, printed<T>(dir / "exact", values, [&](writer& out, T x, std::size_t i) {
                     out.print(x, sluice::fixed(places[i]));
                   }));
}

TEST_F(round_trip, fixed_with_as_many_digits_as_the_value_has_gives_the_same_bits) {
  check_exact_fixed<double>(dir.path());
  check_exact_fixed<float>(dir.path());
}

template <class T>
std::vector<T> edge_values() {
  using limits = std::numeric_limits<T>;
  std::vector<T> values = {T(0),
                           -T(0),
                           limits::min(),
                           -limits::min(),
                           limits::max(),
                           limits::lowest(),
                           limits::denorm_min(),
                           -limits::denorm_min(),
                           std::nextafter(limits::min(), T(0)),
                           std::nextafter(limits::denorm_min(), T(1)),
                           std::nextafter(limits::max(), T(0)),
                           limits::epsilon(),
                           T(1),
                           -T(1),
                           std::nextafter(T(1), T(2)),
                           std::nextafter(T(1), T(0)),
                           T(0.1),
                           T(1) / T(3),
                           T(1e23),
                           T(9007199254740993.0),
                           limits::infinity(),
                           -limits::infinity(),
                           limits::quiet_NaN(),
                           -limits::quiet_NaN()};
  for (int e = limits::min_exponent - limits::digits; e <= limits::max_exponent; e += 7)
    values.push_back(std::ldexp(T(1), e - 1));
  return values;
}

template <class T>
void check_edges(const std::filesystem::path& dir) {
  SCOPED_TRACE(sizeof(T) == 8 ? "double" : "float");
  auto values = edge_values<T>();
  check_full_forms(dir, values);
  // Fixed with 1100 digits is exact for every float and double: the
  // smallest subnormal double has 1074 digits after the point.
  expect_same_bits(values, printed<T>(dir / "fixed", values, [](writer& out, T x, std::size_t) {
                     out.print(x, sluice::fixed(1100));
                   }));
  for (int precision : {0, 1, 3, 9, 10, 17, 30}) {
    SCOPED_TRACE(precision);
    expect_nearest<T>(printed<T>(dir / "short", values, [&](writer& out, T x, std::size_t) {
      out.print(x, sluice::fixed(precision));
    }));
  }
}

TEST_F(round_trip, edge_doubles_and_floats_in_every_form) {
  check_edges<double>(dir.path());
  check_edges<float>(dir.path());
}

// Decimal, then in the base i % 35 + 2 with parse<T>(text, base).
template <class T>
void check_integers(const std::filesystem::path& dir) {
  SCOPED_TRACE(sizeof(T) * 8);
  auto values = random_values<T>(random_count, 2);
  using limits = std::numeric_limits<T>;
  values.insert(values.end(), {limits::min(), limits::max(), T(0), T(1), T(limits::max() / 10)});
  expect_same_bits(
      values, printed<T>(dir / "dec", values, [](writer& out, T x, std::size_t) { out.print(x); }));
  base_for base_of = [](std::size_t i) { return static_cast<int>(i % 35 + 2); };
  expect_same_bits(
      values,
      printed<T>(
          dir / "base", values,
          [&](writer& out, T x, std::size_t i) { out.print(x, sluice::base(base_of(i))); },
          base_of),
      base_of);
}

TEST_F(round_trip, random_integers_of_every_type_in_every_base) {
  check_integers<signed char>(dir.path());
  check_integers<unsigned char>(dir.path());
  check_integers<short>(dir.path());
  check_integers<unsigned short>(dir.path());
  check_integers<int>(dir.path());
  check_integers<unsigned>(dir.path());
  check_integers<long>(dir.path());
  check_integers<unsigned long>(dir.path());
  check_integers<long long>(dir.path());
  check_integers<unsigned long long>(dir.path());
}

TEST_F(round_trip, hex_upper_reads_back_too) {
  std::vector<std::uint64_t> values = {0, 0xdeadbeef, ~std::uint64_t{0}};
  base_for hex = [](std::size_t) { return 16; };
  auto back = printed<std::uint64_t>(
      dir / "hex", values,
      [](writer& out, std::uint64_t x, std::size_t) { out.print(x, sluice::hex_upper); }, hex);
  ASSERT_EQ(back.texts.size(), 3u);
  EXPECT_EQ(back.texts[1], "DEADBEEF");
  expect_same_bits(values, back, hex);
}

}  // namespace
