// sluice::print (<sluice/fmt.hpp>): the bytes fmt::output_file writes for the
// same calls, whatever the writer's buffer size, and errors that stick.
#include <fmt/os.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <limits>
#include <sluice/fmt.hpp>
#include <sluice/sluice.hpp>
#include <string>

#include "fake_sys.hpp"
#include "test_support.hpp"

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
  EXPECT_EQ(fake.calls(call::pwritev), 0);
  out.close();
  EXPECT_EQ(read_all(path), "1 and 2.5");
}

TEST_F(fmt_test, a_failed_write_throws_and_sticks) {
  auto path = dir / "e";
  fake_sys fake;
  fake.fail(call::pwritev, 1, ENOSPC);
  sluice::writer out(path, {.buffer_size = 8});
  sluice::print(out, "{}", 1234567);
  auto error = thrown([&] { sluice::print(out, "{}", 89); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code(), std::error_code(ENOSPC, std::generic_category()));
  auto again = thrown([&] { sluice::print(out, "x"); });
  ASSERT_TRUE(again);
  EXPECT_EQ(again->code(), error->code());
  EXPECT_THROW(out.close(), std::system_error);
  EXPECT_EQ(fake.calls(call::pwritev), 1) << "a failed write was retried";
}

}  // namespace
