// sluice-bench's sizes and its free-space check: --size and --buffer-size
// take whole numbers of bytes with a 1024-based unit, and refuse a sign, a
// fraction, hex, an unknown unit or more than 64 bits with a usage error
// (exit 2); a run that would need more space than the filesystem of --dir
// has free is refused before anything is written (exit 1), on a small tmpfs
// the test mounts.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_process.hpp"
#include "core/units.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::bench::parse_size;
namespace fs = std::filesystem;

constexpr std::uint64_t kib = 1024, mib = kib * 1024, gib = mib * 1024;

// The message parse_size(text) throws, or "" if it returns.
std::string refusal(const std::string& text) {
  try {
    parse_size(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(bench_sizes, whole_numbers_with_a_1024_based_unit_are_sizes) {
  EXPECT_EQ(parse_size("4096"), 4096u);
  EXPECT_EQ(parse_size("010"), 10u) << "decimal, not octal";
  EXPECT_EQ(parse_size("512K"), 512 * kib);
  EXPECT_EQ(parse_size("512k"), 512 * kib);
  EXPECT_EQ(parse_size("512KB"), 512 * kib);
  EXPECT_EQ(parse_size("512KiB"), 512 * kib);
  EXPECT_EQ(parse_size("64M"), 64 * mib);
  EXPECT_EQ(parse_size("1G"), gib);
  EXPECT_EQ(parse_size("2t"), 2 * 1024 * gib);
  EXPECT_EQ(parse_size("1E"), std::uint64_t{1} << 60);
  EXPECT_EQ(parse_size("15EiB"), std::uint64_t{15} << 60);
  EXPECT_EQ(parse_size("100b"), 100u);
  EXPECT_EQ(parse_size("18446744073709551615"), UINT64_MAX);
}

TEST(bench_sizes, anything_else_is_refused_saying_why) {
  for (const char* text :
       {"-5", "+5", "1.5G", "0x10", "1e3", "5x", "G", "", " 5", "5 M", "5MiBs", "5iB", "--1"}) {
    EXPECT_NE(refusal(text).find("is not a size: a whole number of bytes"), std::string::npos)
        << "'" << text << "': " << refusal(text);
  }
  for (const char* text : {"99999999999999999999", "18446744073709551616", "16E", "16384P"})
    EXPECT_NE(refusal(text).find("is more than 2^64 - 1 bytes"), std::string::npos)
        << "'" << text << "': " << refusal(text);
}

#ifdef SLUICE_BENCH
// --list: the options are parsed and nothing runs, even if a bad size got
// through.
TEST(bench_size_options, bad_sizes_are_usage_errors) {
  for (const char* option : {"--size", "--buffer-size"}) {
    for (const char* text : {"-5", "1.5G", "0x10", "5x", "99999999999999999999", "0"}) {
      bench_run run = run_bench({option, text, "--list"});
      EXPECT_TRUE(exited_with(run.status, 2)) << option << " " << text << ": " << run.status;
      EXPECT_NE(run.err.find(std::string("sluice-bench: ") + option + ": "), std::string::npos)
          << run.err;
    }
  }
  bench_run huge = run_bench({"--buffer-size", "2G", "--list"});
  EXPECT_TRUE(exited_with(huge.status, 2)) << huge.status;
  EXPECT_NE(huge.err.find("'2G' is more than 1 GiB"), std::string::npos) << huge.err;
}

TEST(bench_size_options, good_sizes_are_taken) {
  for (const char* option : {"--size", "--buffer-size"})
    for (const char* text : {"1", "4096", "512K", "64MiB", "1G"}) {
      bench_run run = run_bench({option, text, "--list"});
      EXPECT_TRUE(exited_with(run.status, 0)) << option << " " << text << ": " << run.err;
    }
  EXPECT_TRUE(exited_with(run_bench({"--size", "1E", "--list"}).status, 0));
}

// A 64 MiB tmpfs mounted on a fresh directory for the test's lifetime.
class small_filesystem : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::mount("tmpfs", dir.path().c_str(), "tmpfs", 0, "size=64m,mode=0700") != 0)
      GTEST_SKIP() << "cannot mount a 64 MiB tmpfs (" << std::strerror(errno)
                   << "): mounting needs root (CAP_SYS_ADMIN)";
    mounted = true;
  }
  void TearDown() override {
    if (mounted) ::umount2(dir.path().c_str(), MNT_DETACH);
  }

  temp_dir dir;
  bool mounted = false;
};

TEST_F(small_filesystem, a_run_that_cannot_fit_is_refused_before_writing_anything) {
  std::string mount = dir.path().native();
  bench_run journal = run_bench({"--dir", mount, "--scenario", "journal"});
  EXPECT_TRUE(exited_with(journal.status, 1)) << journal.status << ": " << journal.err;
  EXPECT_NE(journal.err.find("not enough free space in '" + mount +
                             "': the journal scenario needs up to 193 MiB there at once, and "
                             "64 MiB is free"),
            std::string::npos)
      << journal.err;
  // The largest of the chosen scenarios decides; not even the JSON report
  // is created.
  bench_run bytes = run_bench({"--dir", mount, "--scenario", "bytes,text", "--size", "40M",
                               "--json", mount + "/report.json"});
  EXPECT_TRUE(exited_with(bytes.status, 1)) << bytes.status << ": " << bytes.err;
  EXPECT_NE(bytes.err.find("the bytes scenario needs up to 81 MiB"), std::string::npos)
      << bytes.err;
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST_F(small_filesystem, a_run_that_fits_runs) {
  bench_run run = run_bench(
      {"--dir", dir.path().native(), "--scenario", "bytes", "--size", "8M", "--repeat", "1"});
  EXPECT_TRUE(exited_with(run.status, 0)) << run.status << ": " << run.err;
  EXPECT_TRUE(fs::is_empty(dir.path()));
}
#endif

}  // namespace
