// sluice::ostream: the same bytes and positions as std::ofstream for the same
// insertions, tellp() without a system call, errors reported by close().
#include <gtest/gtest.h>

#ifndef _WIN32
#include <sys/mman.h>
#endif

#include <cerrno>
#include <fstream>
#include <iomanip>
#include <ios>
#include <sluice/sluice.hpp>
#include <string>
#include <vector>

#include "support/fake_sys.hpp"
#include "support/platform.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;

using ostream_test = dir_test;

// Insertions with every flag a program may set; returns tellp() after each.
std::vector<long long> insert_everything(std::ostream& out) {
  std::vector<long long> positions;
  auto mark = [&] { positions.push_back(static_cast<long long>(out.tellp())); };
  out << "text " << 'c' << ' ' << 42 << ' ' << -7L << ' ' << 123456789012345ULL << '\n';
  mark();
  out << 3.14159265358979 << ' ' << 1e-300 << ' ' << 2.5f << ' ' << 1e21 << '\n';
  mark();
  out << std::setprecision(12) << 3.14159265358979 << ' ' << std::setprecision(3) << 1234.5678
      << '\n';
  mark();
  out << std::fixed << 0.1 << ' ' << 1e10 << ' ' << std::scientific << 0.000123 << '\n';
  out << std::defaultfloat << std::hexfloat << 1.5 << std::defaultfloat << '\n';
  mark();
  out << std::setw(10) << 42 << '|' << std::left << std::setw(8) << "ab" << '|' << std::right
      << std::setfill('*') << std::setw(6) << -3 << '|' << std::internal << std::setw(7) << -3
      << std::setfill(' ') << '\n';
  mark();
  out << std::hex << 255 << ' ' << std::showbase << 255 << ' ' << std::uppercase << 255 << ' '
      << std::oct << 8 << std::dec << std::noshowbase << std::nouppercase << '\n';
  mark();
  out << std::showpos << 5 << ' ' << 0.5 << std::noshowpos << ' ' << std::boolalpha << true << ' '
      << false << std::noboolalpha << ' ' << true << '\n';
  mark();
  out << std::showpoint << 2.0 << std::noshowpoint << ' ' << std::numeric_limits<double>::infinity()
      << ' ' << -std::numeric_limits<double>::infinity() << ' '
      << std::numeric_limits<double>::max() << '\n';
  mark();
  out << std::string(100000, 'L') << '\n';  // larger than every buffer below
  mark();
  out.write("raw\0bytes", 9);
  out.put('!');
  mark();
  for (int i = 0; i < 20000; ++i) out << i << (i % 10 ? ' ' : '\n');
  mark();
  out << std::flush << "after flush" << std::endl;
  mark();
  return positions;
}

TEST_F(ostream_test, same_bytes_and_positions_as_ofstream) {
  std::vector<long long> expected_positions;
  {
    std::ofstream model(dir / "model", std::ios::binary);  // no CR LF on Windows
    expected_positions = insert_everything(model);
  }
  std::string expected = read_all(dir / "model");
  for (std::size_t buffer_size : {1u, 7u, 4096u, 0u}) {
    SCOPED_TRACE(buffer_size);
    std::vector<long long> positions;
    {
      sluice::ostream out(dir / "sluice", {.buffer_size = buffer_size});
      positions = insert_everything(out);
      EXPECT_TRUE(out.good());
      out.close();
    }
    EXPECT_EQ(positions, expected_positions);
    EXPECT_EQ(read_all(dir / "sluice"), expected);
  }
}

TEST_F(ostream_test, same_bytes_and_positions_with_write_behind) {
  std::vector<long long> expected_positions;
  {
    std::ofstream model(dir / "model", std::ios::binary);
    expected_positions = insert_everything(model);
  }
  std::vector<long long> positions;
  {
    sluice::ostream out(dir / "sluice", {.buffer_size = 4096, .write_behind = true});
    positions = insert_everything(out);
    out.close();
  }
  EXPECT_EQ(positions, expected_positions);
  EXPECT_EQ(read_all(dir / "sluice"), read_all(dir / "model"));
}

TEST_F(ostream_test, tellp_makes_no_system_call_and_does_not_flush) {
  auto path = dir / "t";
  sluice::ostream out(path, {.buffer_size = 1 << 20});
  fake_sys fake;
  std::uint64_t inserted = 0;
  for (int i = 0; i < 1000; ++i) {
    out << "line " << i << '\n';
    inserted += 6 + std::to_string(i).size();
    ASSERT_EQ(out.tellp(), static_cast<std::streamoff>(inserted));
    ASSERT_EQ(out.tell(), inserted);
  }
  EXPECT_EQ(fake.calls(call::write_at), 0);
  EXPECT_EQ(fake.calls(call::facts), 0);
  EXPECT_EQ(fake.calls(call::direct_alignment), 0);
  EXPECT_EQ(size_on_disk(path), 0u);
  out.close();
  EXPECT_EQ(size_on_disk(path), inserted);
}

TEST_F(ostream_test, endl_and_flush_hand_the_bytes_to_the_os) {
  auto path = dir / "f";
  sluice::ostream out(path);
  out << "abc" << std::endl;
  EXPECT_EQ(read_all(path), "abc\n");
  out << "de" << std::flush;
  EXPECT_EQ(read_all(path), "abc\nde");
  out.close();
}

TEST_F(ostream_test, a_failed_write_sets_badbit_and_close_throws_it) {
  auto path = dir / "e";
  fake_sys fake;
  fake.fail(call::write_at, 1, ENOSPC);
  sluice::ostream out(path, {.buffer_size = 16});
  for (int i = 0; i < 100; ++i) out << "0123456789";
  EXPECT_TRUE(out.bad());
  auto error = thrown([&] { out.close(); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code(), std::error_code(ENOSPC, std::generic_category()));
  EXPECT_NE(std::string(error->what()).find(quoted(path)), std::string::npos) << error->what();
  EXPECT_EQ(fake.calls(call::write_at), 1) << "a failed write was retried";
}

TEST_F(ostream_test, close_throws_even_when_exceptions_are_asked_for) {
  fake_sys fake;
  fake.fail(call::write_at, 1, EIO);
  sluice::ostream out(dir / "x");
  out << "pending";
  out.exceptions(std::ios_base::badbit);
  auto error = thrown([&] { out.close(); });  // the writer's error, not ios_base::failure
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code(), std::error_code(EIO, std::generic_category()));
  EXPECT_TRUE(out.bad());
}

TEST_F(ostream_test, insertion_after_close_sets_badbit) {
  sluice::ostream out(dir / "c");
  out << "x";
  out.close();
  EXPECT_TRUE(out.good());
  out << "y";
  EXPECT_TRUE(out.bad());
  EXPECT_EQ(read_all(dir / "c"), "x");
}

TEST_F(ostream_test, writes_through_an_open_file_from_its_position) {
  auto path = dir / "a";
  write_all(path, "head:");
  auto target = sluice::file::open(path, {.mode = sluice::open_mode::append});
  {
    sluice::ostream out(std::move(target));
    out << 12 << ' ' << 0.5;
    EXPECT_EQ(out.tellp(), 5 + 6);
    out.close();
  }
  EXPECT_EQ(read_all(path), "head:12 0.5");
}

TEST_F(ostream_test, destructor_reports_a_failure_instead_of_throwing) {
  captured_reports reports;
  {
    fake_sys fake;
    fake.fail(call::write_at, 1, EIO);
    sluice::ostream out(dir / "d");
    out << "lost";
  }
  ASSERT_FALSE(reports.reports().empty());
  EXPECT_EQ(reports.reports()[0].code, std::error_code(EIO, std::generic_category()));
}

// An insertion whose write fails only sets badbit: nothing was thrown to
// the caller, so the destructor reports it, once. Thrown (exceptions()),
// it is not reported again.
TEST_F(ostream_test, a_failure_that_only_set_badbit_is_reported_by_the_destructor) {
  for (bool thrown_to_caller : {false, true}) {
    SCOPED_TRACE(thrown_to_caller ? "exceptions(badbit)" : "badbit only");
    captured_reports reports;
    {
      fake_sys fake;
      fake.fail(call::write_at, 1, EIO);
      sluice::ostream out(dir / "d", {.buffer_size = 4});
      if (thrown_to_caller) {
        out.exceptions(std::ios_base::badbit);
        EXPECT_THROW(out << "more than four bytes", std::system_error);
      } else {
        out << "more than four bytes";
      }
      EXPECT_TRUE(out.bad());
    }
    EXPECT_EQ(reports.reports().size(), thrown_to_caller ? 0u : 1u);
  }
}

// A failure under std::unitbuf, which syncs from a sentry's destructor, sets
// badbit; it must not escape that destructor (std::terminate).
TEST_F(ostream_test, a_failure_under_unitbuf_sets_badbit_and_close_throws_it) {
  sluice::ostream out("/dev/full");
  out << std::unitbuf << "hello";
  EXPECT_TRUE(out.bad());
  auto e = thrown([&] { out.close(); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), ENOSPC);
}

#ifndef _WIN32
// pbump() takes an int: an insertion of 2 GiB or more must not wrap it. The
// text is zero pages never written to; /dev/null takes the bytes.
TEST_F(ostream_test, an_insertion_over_int_max_bytes_is_counted_whole) {
  constexpr std::size_t length = std::size_t{1} << 31;  // INT_MAX + 1
  void* text =
      ::mmap(nullptr, length, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ASSERT_NE(text, MAP_FAILED);
  {
    sluice::ostream out("/dev/null", {.buffer_size = length + 4096});
    out << 'a';
    out.write(static_cast<const char*>(text), static_cast<std::streamsize>(length));
    EXPECT_TRUE(out.good());
    EXPECT_EQ(static_cast<std::size_t>(out.tellp()), 1 + length);
    out.close();
  }
  ::munmap(text, length);
}
#else
SLUICE_SKIPPED_ON_WINDOWS_F(ostream_test, an_insertion_over_int_max_bytes_is_counted_whole,
                            "2 GiB of zero pages never written to (mmap MAP_NORESERVE)")
#endif

}  // namespace
