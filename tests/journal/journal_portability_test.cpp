// The journal's bytes on disk are the same on every platform, so a journal
// written on Linux opens and replays on Windows, and one written on Windows
// on Linux. tests/data/journal/<platform>/ holds the sample journal of
// support/journal_sample.hpp as each platform's build wrote it
// (make_journal_sample); every build replays each of them, goes on writing
// into it, and writes the sample anew to compare with each, byte for byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sluice/journal.hpp>
#include <string>
#include <vector>

#include "support/journal_sample.hpp"
#include "support/journal_test_support.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::journal;

// The sample journal the build for `platform` wrote.
std::filesystem::path committed_sample(const std::string& platform) {
  return std::filesystem::path(SLUICE_TEST_SOURCE_DIR) / "data" / "journal" / platform;
}

// Where `got` first differs from `want`, or "" if they are the same.
std::string first_difference(const std::string& got, const std::string& want) {
  auto [at, ignored] = std::mismatch(got.begin(), got.end(), want.begin(), want.end());
  auto offset = static_cast<std::size_t>(at - got.begin());
  if (got.size() == want.size() && offset == got.size()) return "";
  return "first difference at byte " + std::to_string(offset) + " (sizes " +
         std::to_string(got.size()) + " and " + std::to_string(want.size()) + ")";
}

class journal_portability : public dir_test, public testing::WithParamInterface<std::string> {
 protected:
  void SetUp() override {
    sample_ = committed_sample(GetParam());
    ASSERT_TRUE(std::filesystem::is_directory(sample_))
        << sample_ << " is missing: make it with make_journal_sample (tests/README.md)";
  }
  std::filesystem::path sample_;
};

// Opened for writing (a copy: opening takes its lock), the sample gives its
// records back, takes one more, and gives all of them after reopening.
TEST_P(journal_portability, the_sample_written_there_replays_and_goes_on_here) {
  auto copy = dir / "log";
  std::filesystem::copy(sample_, copy, std::filesystem::copy_options::recursive);
  auto expected = journal_sample_records();
  std::string more = pattern(100, 99);
  {
    auto log = journal::open(copy, journal_sample_options());
    auto records = read_records(log);
    ASSERT_EQ(records.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(records[i].lsn, i + 1);
      EXPECT_EQ(records[i].data, expected[i]) << "lsn " << i + 1;
    }
    EXPECT_EQ(log.write(bytes_of(more)), expected.size() + 1);
    log.close();
  }
  auto again = journal::open(copy, journal_sample_options());
  auto records = read_records(again);
  ASSERT_EQ(records.size(), expected.size() + 1);
  EXPECT_EQ(records.back().data, more);
}

// What this build writes is what the build for that platform wrote: the
// same files, byte for byte.
TEST_P(journal_portability, the_sample_written_here_has_the_same_bytes) {
  write_journal_sample(dir / "log");
  ASSERT_EQ(entries(dir / "log"), entries(sample_));
  for (const auto& name : entries(sample_))
    EXPECT_EQ(first_difference(read_all(dir / "log" / name), read_all(sample_ / name)), "") << name;
}

INSTANTIATE_TEST_SUITE_P(written_on, journal_portability, testing::Values("linux", "windows"),
                         [](const auto& info) { return info.param; });

}  // namespace
