// sluice::print (<sluice/fmt.hpp>): the bytes fmt::output_file writes for the
// same calls, whatever the writer's buffer size, and errors that stick.
#include <fmt/os.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <random>
#include <sluice/fmt.hpp>
#include <sluice/sluice.hpp>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "support/fake_sys.hpp"
#include "support/test_support.hpp"

// A value whose formatter counts its calls and writes `length` characters
// more each time: formatting it twice would show.
struct counted_text {
  int* calls;
  std::size_t length;
};

template <>
struct fmt::formatter<counted_text> {
  constexpr auto parse(fmt::format_parse_context& context) { return context.begin(); }
  auto format(const counted_text& text, fmt::format_context& context) const {
    ++*text.calls;
    std::string body(text.length * static_cast<std::size_t>(*text.calls), 'a' + *text.calls);
    return fmt::format_to(context.out(), "{}", body);
  }
};

namespace {

using namespace sluice_test;

using fmt_test = dir_test;

// The same calls through either print, PRINT(...) being sluice::print(out,
// ...) or fmt::ostream::print(...). A macro, because a compile-time checked
// format string cannot be passed on through a function.
#define PRINT_EVERYTHING(PRINT)                                                      \
  do {                                                                               \
    PRINT("plain text\n");                                                           \
    PRINT("{} {} {} {}\n", 42, -7L, std::numeric_limits<std::uint64_t>::max(), 'c'); \
    PRINT("{} {} {:.3f} {:e} {:g}\n", 0.1, 1e-300, 3.14159, 12345.678, 0.0001);      \
    PRINT("{:>10}|{:<8}|{:^9}|{:*^7}\n", 42, "ab", "mid", 'x');                      \
    PRINT("{:#x} {:08b} {:+d} {:o}\n", 255, 5, 3, 8);                                \
    PRINT("{} {}\n", true, std::string("a string"));                                 \
    PRINT("{} {} {}\n", std::numeric_limits<double>::infinity(), -0.0,               \
          std::numeric_limits<double>::quiet_NaN());                                 \
    for (int i = 0; i < 5000; ++i) PRINT("{};{:.2f}\n", i, i / 7.0);                 \
    PRINT("{:>100000}\n", "wide"); /* longer than every buffer below */              \
    PRINT("{}\n", std::string(3000, 'M'));                                           \
  } while (false)

TEST_F(fmt_test, same_bytes_as_fmt_output_file) {
  {
    auto model = fmt::output_file((dir / "model").string());
#define MODEL_PRINT(...) model.print(__VA_ARGS__)
    PRINT_EVERYTHING(MODEL_PRINT);
    model.close();
  }
  std::string expected = read_all(dir / "model");
  ASSERT_GT(expected.size(), 100000u);
  for (std::size_t buffer_size : {1u, 16u, 4096u, 0u}) {
    SCOPED_TRACE(buffer_size);
    sluice::writer out(dir / "sluice", {.buffer_size = buffer_size});
#define SLUICE_PRINT(...) sluice::print(out, __VA_ARGS__)
    PRINT_EVERYTHING(SLUICE_PRINT);
    EXPECT_EQ(out.buffer_size(),
              buffer_size == 0 ? sluice::writer_options::default_buffer_size : buffer_size)
        << "a long text grew the buffer";
    out.close();
    EXPECT_EQ(read_all(dir / "sluice"), expected);
  }
}

TEST_F(fmt_test, same_bytes_with_write_behind) {
  {
    auto model = fmt::output_file((dir / "model").string());
    PRINT_EVERYTHING(MODEL_PRINT);
    model.close();
  }
  sluice::writer out(dir / "sluice", {.buffer_size = 1024, .write_behind = true});
  PRINT_EVERYTHING(SLUICE_PRINT);
  out.close();
  EXPECT_EQ(read_all(dir / "sluice"), read_all(dir / "model"));
}

TEST_F(fmt_test, formats_into_the_buffer_without_writing) {
  auto path = dir / "b";
  sluice::writer out(path);
  fake_sys fake;
  sluice::print(out, "{} and {}", 1, 2.5);
  EXPECT_EQ(out.buffered(), 9u);
  EXPECT_EQ(fake.calls(call::write_at), 0);
  out.close();
  EXPECT_EQ(read_all(path), "1 and 2.5");
}

// Every argument is formatted once, also when the text is longer than the
// free space or than the whole buffer: a second pass would print another
// text, or outgrow the space the first one measured.
TEST_F(fmt_test, each_argument_is_formatted_once_whatever_the_text_length) {
  for (std::size_t length : {std::size_t{10}, std::size_t{100}, std::size_t{5000}}) {
    SCOPED_TRACE(length);
    auto path = dir / ("once" + std::to_string(length));
    int calls = 0;
    {
      sluice::writer out(path, {.buffer_size = 64});
      out.write(std::string(57, '-'));
      sluice::print(out, "<{}>", counted_text{&calls, length});
      out.close();
    }
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(read_all(path), std::string(57, '-') + "<" + std::string(length, 'b') + ">");
  }
}

TEST_F(fmt_test, a_join_over_an_input_iterator_loses_nothing_past_the_free_space) {
  auto path = dir / "join";
  std::istringstream numbers("10 20 30 40 50 60 70 80 90");
  sluice::writer out(path, {.buffer_size = 64});
  out.write(std::string_view("header-"));
  out.write(std::string(50, '.'));
  sluice::print(out, "{}\n",
                fmt::join(std::istream_iterator<int>(numbers), std::istream_iterator<int>(), ","));
  out.close();
  EXPECT_EQ(read_all(path), "header-" + std::string(50, '.') + "10,20,30,40,50,60,70,80,90\n");
}

TEST_F(fmt_test, a_failed_write_throws_and_sticks) {
  auto path = dir / "e";
  fake_sys fake;
  fake.fail(call::write_at, 1, ENOSPC);
  sluice::writer out(path, {.buffer_size = 8});
  sluice::print(out, "{}", 1234567);
  auto error = thrown([&] { sluice::print(out, "{}", 89); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code(), std::error_code(ENOSPC, std::generic_category()));
  auto again = thrown([&] { sluice::print(out, "x"); });
  ASSERT_TRUE(again);
  EXPECT_EQ(again->code(), error->code());
  EXPECT_THROW(out.close(), std::system_error);
  EXPECT_EQ(fake.calls(call::write_at), 1) << "a failed write was retried";
}

// Floating point values that test a formatter's rounding: specials, exact
// ties, values near the decimal point, and random bit patterns (n of each of
// the random kinds), of either sign.
template <class T>
std::vector<T> floating_values(std::size_t n) {
  using bits = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
  using limits = std::numeric_limits<T>;
  constexpr int mantissa_bits = limits::digits;
  std::vector<T> values = {0.0,   0.125, 0.375, 2.5,   0.5,  1.5,  9.5,  0.25,   0.05,
                           999.5, 1e-5,  5e-4,  0.045, 1e15, 1e16, 1e17, 123.456};
  values.insert(values.end(), {limits::infinity(), limits::quiet_NaN(), limits::denorm_min(),
                               limits::min(), limits::max(), limits::epsilon()});
  std::mt19937_64 random(12345);
  auto uniform = [&random](std::uint64_t low, std::uint64_t high) {
    return std::uniform_int_distribution<std::uint64_t>(low, high)(random);
  };
  for (std::size_t i = 0; i < n; ++i) {
    values.push_back(std::bit_cast<T>(static_cast<bits>(random())));  // any bits, NaNs too
    // Near the decimal point, where the digits kept and dropped both vary.
    auto mantissa = static_cast<T>(uniform(1, (std::uint64_t{1} << mantissa_bits) - 1));
    values.push_back(std::ldexp(mantissa, static_cast<int>(uniform(0, 140)) - 70 - mantissa_bits));
    // An exact tie for some precision: odd / 2^k (a tie for .(k-1)f), or
    // (10a + 5) * 10^s (a tie in e style).
    auto odd =
        static_cast<T>(uniform(0, (std::uint64_t{1} << uniform(0, mantissa_bits - 1)) - 1) | 1);
    values.push_back(std::ldexp(odd, -static_cast<int>(uniform(1, 40))));
    auto five = static_cast<T>((uniform(0, 100000) * 10 + 5) *
                               static_cast<std::uint64_t>(std::pow(10, uniform(0, 9))));
    values.push_back(five);
  }
  std::size_t positive = values.size();
  for (std::size_t i = 0; i < positive; ++i) values.push_back(-values[i]);
  return values;
}

// Prints each value with `print` (sluice::print) into a writer and `model`
// (fmt::format, the same format string), a batch at a time, and expects the
// same lines; reports the first value that differs.
template <class T, class Print, class Model>
void expect_same_lines(const std::filesystem::path& path, const std::vector<T>& values, Print print,
                       Model model) {
  constexpr std::size_t batch = 4096;
  for (std::size_t first = 0; first < values.size(); first += batch) {
    std::size_t last = std::min(values.size(), first + batch);
    std::string expected;
    {
      sluice::writer out(path);
      for (std::size_t i = first; i < last; ++i) {
        print(out, values[i]);
        expected += model(values[i]);
      }
      out.close();
    }
    std::string got = read_all(path);
    if (got == expected) continue;
    std::size_t line_start = 0;
    for (std::size_t i = first; i < last; ++i) {
      std::size_t end = expected.find('\n', line_start) + 1;
      std::string_view want(expected.data() + line_start, end - line_start);
      if (std::string_view(got).substr(line_start, want.size()) != want) {
        ADD_FAILURE() << "value " << fmt::format("{:a}", values[i]) << "\nfmt:    " << want
                      << "sluice: "
                      << got.substr(line_start, got.find('\n', line_start) + 1 - line_start);
        return;
      }
      line_start = end;
    }
    ADD_FAILURE() << "the batch differs after its last line";
    return;
  }
}

// The specs sluice::print writes itself (".<precision>f" and ".<precision>e").
#define INTERCEPTED                                                                    \
  "{0:.0f} {0:.1f} {0:.2f} {0:.3f} {0:.6f} {0:.9f} {0:.17f} {0:.03f} {0:.0e} {0:.1e} " \
  "{0:.2e} {0:.3e} {0:.6e} {0:.9e} {0:.16e} {0:.25e}\n"
// The same at long precisions, up to the largest sluice::print takes (.200f,
// .496e; a float .470f) and past them.
#define LONG_PRECISIONS \
  "{0:.40f} {0:.99f} {0:.200f} {0:.201f} {0:.470f} {0:.471f} {0:.60e} {0:.496e} {0:.497e}\n"
// Specs that go to {fmt}'s own formatter. ('%' does not exist in {fmt} 9.)
#define NOT_INTERCEPTED                                                                  \
  "{0} {0:10.3f} {0:<12.2e} {0:*^14.1f} {0:+.3f} {0: .3e} {0:#.0f} {0:#.0e} {0:010.3f} " \
  "{0:.3} {0:g} {0:.6g} {0:.17g} {0:a} {0:.3a} {0:.3F} {0:.3E} {0:f} {0:e} {0:.3Lf} "    \
  "{0:.{1}f} {0:.{1}e}\n"

TEST_F(fmt_test, intercepted_float_specs_same_bytes_as_fmt) {
  expect_same_lines(
      dir / "d", floating_values<double>(25000),
      [](sluice::writer& out, double v) { sluice::print(out, INTERCEPTED, v); },
      [](double v) { return fmt::format(INTERCEPTED, v); });
  expect_same_lines(
      dir / "f", floating_values<float>(25000),
      [](sluice::writer& out, float v) { sluice::print(out, INTERCEPTED, v); },
      [](float v) { return fmt::format(INTERCEPTED, v); });
}

TEST_F(fmt_test, long_precisions_same_bytes_as_fmt) {
  expect_same_lines(
      dir / "d", floating_values<double>(1000),
      [](sluice::writer& out, double v) { sluice::print(out, LONG_PRECISIONS, v); },
      [](double v) { return fmt::format(LONG_PRECISIONS, v); });
  expect_same_lines(
      dir / "f", floating_values<float>(1000),
      [](sluice::writer& out, float v) { sluice::print(out, LONG_PRECISIONS, v); },
      [](float v) { return fmt::format(LONG_PRECISIONS, v); });
}

TEST_F(fmt_test, other_float_specs_same_bytes_as_fmt) {
  expect_same_lines(
      dir / "d", floating_values<double>(5000),
      [](sluice::writer& out, double v) { sluice::print(out, NOT_INTERCEPTED, v, 4); },
      [](double v) { return fmt::format(NOT_INTERCEPTED, v, 4); });
  expect_same_lines(
      dir / "f", floating_values<float>(5000),
      [](sluice::writer& out, float v) { sluice::print(out, NOT_INTERCEPTED, v, 4); },
      [](float v) { return fmt::format(NOT_INTERCEPTED, v, 4); });
}

// Which formatter sluice::print's float wrapper hands `spec` (what follows
// the ':' of a replacement field, its '}' included) to.
template <class T>
auto route(const char* spec) {
  fmt::formatter<sluice::detail::fmt_floating<T>> formatter;
  fmt::format_parse_context context(spec);
  formatter.parse(context);
  return formatter.how;
}

TEST(fmt_bridge, only_a_bare_precision_with_f_or_e_is_written_by_sluice) {
  using routes = fmt::formatter<sluice::detail::fmt_floating<double>>;
  EXPECT_EQ(route<double>(".3f}"), routes::by_sluice);
  EXPECT_EQ(route<float>(".6e}"), routes::by_sluice);
  EXPECT_EQ(route<double>(".0f}"), routes::by_sluice);
  EXPECT_EQ(route<double>("}"), routes::plain);
  for (const char* spec : {">8.3f}", ".3}", ".3F}", "+.3f}", ".{}f}", "f}", ".3g}", ".201f}"})
    EXPECT_EQ(route<double>(spec), routes::by_fmt) << spec;
}

TEST_F(fmt_test, automatic_argument_numbers_reach_the_same_bytes) {
  sluice::writer out(dir / "a");
  sluice::print(out, "{:.3f} {} {:.2e} {:>9.1f}\n", 2.0625, 7, 1234.5f, -0.25);
  out.close();
  EXPECT_EQ(read_all(dir / "a"),
            fmt::format("{:.3f} {} {:.2e} {:>9.1f}\n", 2.0625, 7, 1234.5f, -0.25));
}

}  // namespace

namespace {

// Every field print cuts at compile time and writes itself: "{}" of each
// argument kind, explicit argument numbers, "{{" and "}}", floats' "{}",
// ".<precision>f" and ".<precision>e".
#define COMPILED_FORMAT \
  "{{{0}}} {0} {0:} {0:.3f} {0:.0e} {0:.17e} [{1}|{2}|{3}|{4}|{5}|{6}|{7}|{8}] }}{{\n"

TEST_F(fmt_test, compiled_formats_same_bytes_as_fmt) {
  std::string text = "a std::string";
  std::string_view view = "a view";
  char buffer[] = "a char array";
  const char* c_string = "a C string";
  auto args = [&](auto value) {
    return std::make_tuple(value, text, view, buffer, c_string, 'q', true,
                           std::numeric_limits<std::int8_t>::min(),
                           std::numeric_limits<std::uint64_t>::max());
  };
  expect_same_lines(
      dir / "d", floating_values<double>(20000),
      [&](sluice::writer& out, double v) {
        std::apply([&](auto&&... a) { sluice::print(out, COMPILED_FORMAT, a...); }, args(v));
      },
      [&](double v) {
        return std::apply([](auto&&... a) { return fmt::format(COMPILED_FORMAT, a...); }, args(v));
      });
  expect_same_lines(
      dir / "f", floating_values<float>(20000),
      [&](sluice::writer& out, float v) {
        std::apply([&](auto&&... a) { sluice::print(out, COMPILED_FORMAT, a...); }, args(v));
      },
      [&](float v) {
        return std::apply([](auto&&... a) { return fmt::format(COMPILED_FORMAT, a...); }, args(v));
      });
}

// Doubles and floats at every decimal exponent around where {fmt}'s "{}"
// turns from fixed notation to exponent form, both ways.
TEST_F(fmt_test, shortest_floats_change_notation_where_fmt_does) {
  std::vector<double> doubles;
  std::vector<float> floats;
  for (int exponent = -8; exponent <= 20; ++exponent)
    for (double digits : {1.0, 1.5, 9.999, 1.2345678901234567, 123456789.0}) {
      doubles.push_back(digits * std::pow(10.0, exponent));
      floats.push_back(static_cast<float>(digits * std::pow(10.0, exponent)));
    }
  expect_same_lines(
      dir / "d", doubles, [](sluice::writer& out, double v) { sluice::print(out, "{}\n", v); },
      [](double v) { return fmt::format("{}\n", v); });
  expect_same_lines(
      dir / "f", floats, [](sluice::writer& out, float v) { sluice::print(out, "{}\n", v); },
      [](float v) { return fmt::format("{}\n", v); });
}

TEST(fmt_bridge, cuts_at_compile_time_only_the_fields_it_writes_itself) {
  using sluice::detail::print_format;
  constexpr print_format<int, double, const char*> compiled("{} {:.3f} {{{}}}");
  static_assert(compiled.compiled());
  ASSERT_EQ(compiled.pieces().size(), 5u);  // "", " ", " {" + "{" ... and the last "}"
  EXPECT_EQ(compiled.pieces()[1].how, sluice::detail::format_piece::fixed);
  EXPECT_EQ(compiled.pieces()[1].precision, 3);
  EXPECT_TRUE((print_format<double, int>("{1}{0:.6e}").compiled()));
  EXPECT_TRUE(print_format<>("no fields").compiled());
  EXPECT_TRUE(print_format<>("").compiled());
  // Specs, names and types left to {fmt}.
  EXPECT_FALSE(print_format<int>("{:>5}").compiled());
  EXPECT_FALSE(print_format<double>("{:.3g}").compiled());
  EXPECT_FALSE(print_format<double>("{:.201f}").compiled());
  EXPECT_FALSE((print_format<double, int>("{:.{}f}").compiled()));
  EXPECT_FALSE(print_format<decltype(fmt::arg("n", 1))>("{n}").compiled());
  EXPECT_FALSE(print_format<const void*>("{}").compiled());
  EXPECT_FALSE(print_format<counted_text>("{}").compiled());
  EXPECT_FALSE(print_format<long double>("{}").compiled());
  // More pieces than it holds.
  EXPECT_FALSE((print_format<int>("{0}{0}{0}{0}{0}{0}{0}{0}{0}{0}{0}{0}{0}{0}{0}{0}{0}{0}{0}{0}"
                                  "{0}{0}{0}{0}{0}")
                    .compiled()));
}

TEST_F(fmt_test, a_null_c_string_is_refused_as_fmt_refuses_it_with_nothing_written) {
  sluice::writer out(dir / "n");
  const char* null = nullptr;
  out.write("kept\n");
  EXPECT_THROW(sluice::print(out, "before {} after\n", null), fmt::format_error);
  out.close();
  EXPECT_EQ(read_all(dir / "n"), "kept\n");
}

TEST_F(fmt_test, a_runtime_format_string_reaches_the_same_bytes) {
  sluice::writer out(dir / "r");
  std::string format = "{} and {:.2f}\n";
  sluice::print(out, fmt::runtime(format), 7, 0.125);
  out.close();
  EXPECT_EQ(read_all(dir / "r"), "7 and 0.12\n");
}

}  // namespace

namespace {

// A caller's own function that passes its checked format string on.
template <class... Args>
void log_line(sluice::writer& out, fmt::format_string<Args...> format, Args&&... args) {
  sluice::print(out, format, std::forward<Args>(args)...);
  out.put('\n');
}

TEST_F(fmt_test, a_format_string_passed_on_reaches_the_same_bytes) {
  sluice::writer out(dir / "p");
  log_line(out, "{} of {:.1f}", 3, 9.25);
  out.close();
  EXPECT_EQ(read_all(dir / "p"), "3 of 9.2\n");
}

}  // namespace
