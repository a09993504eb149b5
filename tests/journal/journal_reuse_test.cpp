// sluice::journal with journal_options::reuse_segments: truncate_before keeps
// a spare, the next segment is made from it, its older records never come
// back, recovery of a reused segment, and the spares a journal must not use.
#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <optional>
#include <sluice/sluice.hpp>
#include <string>
#include <vector>

#include "support/journal_test_support.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::journal;
using sluice::journal_options;
using sluice::recovery_mode;

using journal_reuse = dir_test;

// Two pages a segment: a new segment's first batch is padded to the end of
// its first page, and the second keeps the spare's older records.
constexpr journal_options reusing{.segment_size = 8192, .reuse_segments = true};

// The first lsn write_and_truncate() keeps.
constexpr std::uint64_t kept_from = 121;

std::vector<std::filesystem::path> spare_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".spare") out.push_back(entry.path());
  return out;
}

// Whether `segment`'s header has the reused flag: it was made from a spare.
bool made_from_spare(const std::filesystem::path& segment) {
  return little_endian(read_all(segment), 36, 4) == 1;
}

// Writes records 1 to kept_from - 1 (several segments) into `log` in `dir`, then
// truncates all but the newest segment: one dropped segment becomes the spare.
void write_and_truncate(journal& log, const std::filesystem::path& dir) {
  write_records(log, 1, kept_from - 1);
  ASSERT_GE(segment_files(dir).size(), 3u);
  log.truncate_before(kept_from);
  ASSERT_EQ(segment_files(dir).size(), 1u);
}

// Writes records from `first` on until the journal moves to a new segment;
// returns the last lsn written.
std::uint64_t write_until_rotation(journal& log, const std::filesystem::path& dir,
                                   std::uint64_t first) {
  auto segments = segment_files(dir).size();
  std::uint64_t lsn = first;
  for (; segment_files(dir).size() == segments; ++lsn) write_records(log, lsn, lsn);
  return lsn - 1;
}

// Writes `header` (64 bytes, version 2 or 3) over the header of `segment`,
// with its checksum recomputed.
void write_v2_header(const std::filesystem::path& segment, std::string header) {
  std::uint32_t crc = reference_crc32c(header.substr(0, 32) + header.substr(36));
  for (int i = 0; i < 4; ++i) header[32 + i] = static_cast<char>(crc >> (8 * i));
  for (std::size_t i = 0; i < header.size(); ++i) damage(segment, i, 1, header[i]);
}

TEST_F(journal_reuse, truncate_keeps_one_spare_and_the_next_segment_is_made_from_it) {
  auto log = journal::open(dir.path(), reusing);
  write_and_truncate(log, dir.path());
  auto spares = spare_files(dir.path());
  ASSERT_EQ(spares.size(), 1u);
  file_identity spare = identity_of(spares[0]);
  std::string old_bytes = read_all(spares[0]);
  std::uint64_t last = write_until_rotation(log, dir.path(), kept_from);
  EXPECT_TRUE(spare_files(dir.path()).empty());
  auto newest = segment_files(dir.path()).back();
  EXPECT_EQ(identity_of(newest), spare);
  EXPECT_TRUE(made_from_spare(newest));
  // Its earlier life's records are still there, past the new ones.
  std::string new_bytes = read_all(newest);
  EXPECT_EQ(new_bytes.substr(4096), old_bytes.substr(4096));
  EXPECT_EQ(read_records(log, kept_from), expected_records(kept_from, last));
  log.close();
  auto again = journal::open(dir.path(), reusing);
  EXPECT_EQ(read_records(again, again.first_lsn()), expected_records(again.first_lsn(), last));
  EXPECT_EQ(again.next_lsn(), last + 1);
}

// A version 3 header is checksummed over everything but its checksum, so
// that its flags, salt and size are covered too; the salt is XORed into the
// checksum of each record of the segment.
TEST_F(journal_reuse, a_reused_segment_holds_exactly_the_documented_bytes) {
  auto log = journal::open(dir.path(), reusing);
  write_and_truncate(log, dir.path());
  std::uint64_t last = write_until_rotation(log, dir.path(), kept_from);
  std::string bytes = read_all(segment_files(dir.path()).back());
  std::string header = bytes.substr(0, 64);
  EXPECT_EQ(header.substr(0, 8), "SLUICEJL");
  EXPECT_EQ(little_endian(header, 8, 4), 3u);
  EXPECT_EQ(little_endian(header, 12, 4), 64u);
  EXPECT_EQ(little_endian(header, 24, 8), last);  // first lsn: the record that rotated
  EXPECT_EQ(little_endian(header, 36, 4), 1u);    // reused
  std::uint64_t salt = little_endian(header, 40, 4);
  EXPECT_NE(salt, 0u);
  EXPECT_EQ(little_endian(header, 44, 8), reusing.segment_size);
  EXPECT_EQ(header.substr(52), std::string(12, '\0'));
  EXPECT_EQ(little_endian(header, 32, 4),
            reference_crc32c(header.substr(0, 32) + header.substr(36)));
  std::string_view record(bytes.data() + 64, 24 + payload(last).size());
  EXPECT_EQ(little_endian(record, 8, 8), last);
  std::string covered = std::string(record.substr(0, 4)) + std::string(record.substr(8));
  EXPECT_EQ(little_endian(record, 4, 4), reference_crc32c(covered) ^ salt);
}

TEST_F(journal_reuse, a_reopened_journal_moves_on_from_a_reused_segment_in_every_mode) {
  std::filesystem::path original = dir.path() / "original";
  std::uint64_t last;
  {
    auto log = journal::open(original, reusing);
    write_and_truncate(log, original);
    last = write_until_rotation(log, original, kept_from) + 2;
    write_records(log, last - 1, last);
  }
  auto segments = segment_files(original).size();
  for (auto mode : {recovery_mode::tolerate_torn_tail, recovery_mode::absolute_consistency,
                    recovery_mode::salvage}) {
    std::filesystem::path copy = dir.path() / std::to_string(static_cast<int>(mode));
    std::filesystem::copy(original, copy);
    journal_options options = reusing;
    options.recovery = mode;
    auto log = journal::open(copy, options);
    EXPECT_EQ(log.next_lsn(), last + 1);
    EXPECT_EQ(read_records(log, kept_from), expected_records(kept_from, last));
    EXPECT_EQ(segment_files(copy).size(), segments + 1);  // not continued among old records
    write_records(log, last + 1, last + 1);
    EXPECT_EQ(read_records(log, kept_from), expected_records(kept_from, last + 1));
  }
}

TEST_F(journal_reuse, corruption_before_durable_records_of_a_reused_segment_is_an_error) {
  std::uint64_t last;
  {
    auto log = journal::open(dir.path(), reusing);
    write_and_truncate(log, dir.path());
    last = write_until_rotation(log, dir.path(), kept_from) + 5;
    write_records(log, last - 4, last);
  }
  auto newest = segment_files(dir.path()).back();
  ASSERT_TRUE(made_from_spare(newest));
  auto at = read_all(newest).find(payload(last - 2));
  damage(newest, at + 1, 1, '\x55');
  auto e = thrown([&] { journal::open(dir.path(), reusing); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EILSEQ);
  EXPECT_NE(error_text(e).find("record " + std::to_string(last - 2) + " is corrupt but record"),
            std::string::npos)
      << e->what();
  journal_options salvage = reusing;
  salvage.recovery = recovery_mode::salvage;
  auto log = journal::open(dir.path(), salvage);
  EXPECT_EQ(log.next_lsn(), last - 2);
}

// A torn last write in a reused segment: the zeros that padded the last
// batch to the page end are gone. The default mode cuts it off; absolute
// consistency refuses.
TEST_F(journal_reuse, absolute_consistency_refuses_a_torn_tail_in_a_reused_segment) {
  std::uint64_t last;
  {
    auto log = journal::open(dir.path(), reusing);
    write_and_truncate(log, dir.path());
    last = write_until_rotation(log, dir.path(), kept_from);
  }
  auto newest = segment_files(dir.path()).back();
  std::string bytes = read_all(newest);
  auto end = bytes.find(payload(last)) + payload(last).size();
  ASSERT_NE(end % 4096, 0u);
  ASSERT_EQ(bytes[end], '\0');
  damage(newest, end, 1, '\x07');
  journal_options absolute = reusing;
  absolute.recovery = recovery_mode::absolute_consistency;
  auto e = thrown([&] { journal::open(dir.path(), absolute); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EILSEQ);
  EXPECT_NE(error_text(e).find("torn or corrupt"), std::string::npos) << e->what();
  auto log = journal::open(dir.path(), reusing);
  EXPECT_EQ(read_records(log, kept_from), expected_records(kept_from, last));
}

// A record of the segment's own life past the padded page, as a torn write
// could leave one: absolute consistency refuses it too.
TEST_F(journal_reuse, absolute_consistency_refuses_a_later_record_past_the_padding) {
  std::uint64_t last;
  {
    auto log = journal::open(dir.path(), reusing);
    write_and_truncate(log, dir.path());
    last = write_until_rotation(log, dir.path(), kept_from) + 1;
    write_records(log, last, last);
  }
  auto newest = segment_files(dir.path()).back();
  std::string bytes = read_all(newest);
  auto start = bytes.find(payload(last)) - 24;
  std::string record = bytes.substr(start, 24 + payload(last).size());
  damage(newest, start, record.size(), '\0');  // record `last` lost, its copy later on
  for (std::size_t i = 0; i < record.size(); ++i) damage(newest, 6000 + i, 1, record[i]);
  journal_options absolute = reusing;
  absolute.recovery = recovery_mode::absolute_consistency;
  auto e = thrown([&] { journal::open(dir.path(), absolute); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EILSEQ);
  auto log = journal::open(dir.path(), reusing);
  EXPECT_EQ(log.next_lsn(), last);
}

TEST_F(journal_reuse, an_open_cursor_keeps_the_spare_from_being_reused) {
  auto log = journal::open(dir.path(), reusing);
  write_records(log, 1, kept_from - 1);
  std::optional<sluice::journal_cursor> cursor(log.read_from(1));
  log.truncate_before(kept_from);
  ASSERT_EQ(spare_files(dir.path()).size(), 1u);
  std::uint64_t last = write_until_rotation(log, dir.path(), kept_from);
  EXPECT_EQ(spare_files(dir.path()).size(), 1u);  // kept for later
  EXPECT_FALSE(made_from_spare(segment_files(dir.path()).back()));
  cursor.reset();
  write_until_rotation(log, dir.path(), last + 1);
  EXPECT_TRUE(spare_files(dir.path()).empty());
  EXPECT_TRUE(made_from_spare(segment_files(dir.path()).back()));
}

TEST_F(journal_reuse, without_the_option_spares_are_removed_at_open) {
  {
    auto log = journal::open(dir.path(), reusing);
    write_and_truncate(log, dir.path());
  }
  ASSERT_EQ(spare_files(dir.path()).size(), 1u);
  auto log = journal::open(dir.path(), {.segment_size = 4096});
  EXPECT_TRUE(spare_files(dir.path()).empty());
  EXPECT_EQ(read_records(log, kept_from), std::vector<read_record>{});
  EXPECT_EQ(log.next_lsn(), kept_from);
}

// A journal that starts afresh (its segments gone) numbers its records from
// 1 again: a spare's records could then carry lsns still to come.
TEST_F(journal_reuse, a_journal_starting_afresh_removes_its_spares) {
  {
    auto log = journal::open(dir.path(), reusing);
    write_and_truncate(log, dir.path());
  }
  std::filesystem::remove(segment_files(dir.path()).front());
  auto log = journal::open(dir.path(), reusing);
  EXPECT_TRUE(spare_files(dir.path()).empty());
  EXPECT_EQ(log.next_lsn(), 1u);
  write_records(log, 1, 3);
  EXPECT_EQ(read_records(log), expected_records(1, 3));
}

// Only a spare numbered below every segment holds only smaller lsns than
// those to come; one numbered above the oldest segment is removed.
TEST_F(journal_reuse, a_spare_numbered_above_the_oldest_segment_is_removed) {
  {
    auto log = journal::open(dir.path(), reusing);
    write_and_truncate(log, dir.path());
  }
  auto spare = spare_files(dir.path()).front();
  auto misplaced = dir.path() / "00000000000000ff.journal.spare";
  std::filesystem::rename(spare, misplaced);
  auto log = journal::open(dir.path(), reusing);
  EXPECT_TRUE(spare_files(dir.path()).empty());
  std::uint64_t last = write_until_rotation(log, dir.path(), kept_from);
  EXPECT_FALSE(made_from_spare(segment_files(dir.path()).back()));
  EXPECT_EQ(read_records(log, kept_from), expected_records(kept_from, last));
}

TEST_F(journal_reuse, a_spare_of_another_size_is_removed_not_reused) {
  {
    auto log = journal::open(dir.path(), reusing);
    write_and_truncate(log, dir.path());
  }
  ASSERT_EQ(spare_files(dir.path()).size(), 1u);
  journal_options larger = reusing;
  larger.segment_size = 16384;
  auto log = journal::open(dir.path(), larger);
  std::uint64_t last = write_until_rotation(log, dir.path(), kept_from);
  EXPECT_TRUE(spare_files(dir.path()).empty());
  auto newest = segment_files(dir.path()).back();
  EXPECT_FALSE(made_from_spare(newest));
  EXPECT_EQ(size_on_disk(newest), 16384u);
  EXPECT_EQ(read_records(log, kept_from), expected_records(kept_from, last));
}

TEST_F(journal_reuse, an_unknown_header_flag_is_refused_as_newer) {
  {
    auto log = journal::open(dir.path(), reusing);
    write_and_truncate(log, dir.path());
    write_until_rotation(log, dir.path(), kept_from);
  }
  auto newest = segment_files(dir.path()).back();
  std::string header = read_all(newest).substr(0, 64);
  header[36] = '\x03';  // the reused flag and one unknown
  write_v2_header(newest, header);
  auto e = thrown([&] { journal::open(dir.path(), reusing); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EPROTONOSUPPORT);
  damage(newest, 36, 1, '\x00');  // the flags changed, the checksum not
  e = thrown([&] { journal::open(dir.path(), reusing); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EINVAL);
  EXPECT_NE(error_text(e).find("checksum"), std::string::npos) << e->what();
}

// A salt without the reused flag would have readers expect salted records
// that the writer, continuing the segment, does not salt.
TEST_F(journal_reuse, a_salt_without_the_reused_flag_is_refused) {
  { journal::open(dir.path(), reusing).close(); }
  auto segment = segment_files(dir.path()).front();
  std::string header = read_all(segment).substr(0, 64);
  header[8] = '\x02';   // version 2
  header[40] = '\x5a';  // a salt, no flag
  write_v2_header(segment, header);
  auto e = thrown([&] { journal::open(dir.path(), reusing); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EINVAL);
  EXPECT_NE(error_text(e).find("salt"), std::string::npos) << e->what();
}

// A record larger than a segment gets a segment of its own, of another
// size: the spare waits for the next segment of the usual size.
TEST_F(journal_reuse, a_segment_for_an_oversized_record_leaves_the_spare) {
  auto log = journal::open(dir.path(), reusing);
  write_and_truncate(log, dir.path());
  std::string big = pattern(20000, 7);
  std::uint64_t lsn = log.write(bytes_of(big));
  EXPECT_EQ(spare_files(dir.path()).size(), 1u);
  EXPECT_FALSE(made_from_spare(segment_files(dir.path()).back()));
  write_until_rotation(log, dir.path(), lsn + 1);
  EXPECT_TRUE(spare_files(dir.path()).empty());
  EXPECT_TRUE(made_from_spare(segment_files(dir.path()).back()));
}

}  // namespace
