// sluice::journal: round trips, rotation, truncate_before, reopening and
// recovery, and refusing what is not a journal.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sluice/sluice.hpp>
#include <span>
#include <string>
#include <vector>

#include "support/journal_test_support.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::journal;
using sluice::journal_options;
using sluice::recovery_mode;

using journal_basic = dir_test;
using journal_recovery = dir_test;
using journal_bad_input = dir_test;

constexpr journal_options small_segments{.segment_size = 4096};

// --- round trips -------------------------------------------------------------

TEST_F(journal_basic, a_new_directory_is_created_and_starts_at_lsn_1) {
  auto log = journal::open(dir / "log");
  EXPECT_EQ(log.next_lsn(), 1u);
  EXPECT_EQ(log.first_lsn(), 1u);
  EXPECT_TRUE(read_records(log).empty());
  EXPECT_EQ(segment_files(dir / "log").size(), 1u);
  log.close();
  EXPECT_FALSE(log.is_open());
}

TEST_F(journal_basic, written_records_read_back_in_order_with_their_lsns) {
  auto log = journal::open(dir.path());
  write_records(log, 1, 50);
  EXPECT_EQ(read_records(log), expected_records(1, 50));
  EXPECT_EQ(read_records(log, 40), expected_records(40, 50));
  EXPECT_TRUE(read_records(log, 51).empty());
}

TEST_F(journal_basic, empty_and_large_records_round_trip) {
  auto log = journal::open(dir.path(), small_segments);
  std::string big = pattern(3 * 1024 * 1024, 9);  // far larger than a segment
  EXPECT_EQ(log.write(bytes_of("")), 1u);
  EXPECT_EQ(log.write(bytes_of(big)), 2u);
  EXPECT_EQ(log.write(bytes_of("after")), 3u);
  std::vector<read_record> want{{1, ""}, {2, big}, {3, "after"}};
  EXPECT_EQ(read_records(log), want);
  log.close();
  auto again = journal::open(dir.path(), small_segments);
  EXPECT_EQ(read_records(again), want);
}

TEST_F(journal_basic, a_record_of_exactly_the_limit_round_trips) {
  std::string biggest = pattern(journal::max_record_size, 5);
  {
    auto log = journal::open(dir.path(), small_segments);
    log.write(bytes_of("small"));
    EXPECT_EQ(log.write(bytes_of(biggest)), 2u);
  }
  auto log = journal::open(dir.path(), small_segments);
  auto records = read_records(log);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[1].lsn, 2u);
  EXPECT_TRUE(records[1].data == biggest);  // not printed if it fails: 64 MiB
}

TEST_F(journal_basic, a_record_over_the_limit_is_refused_and_nothing_is_appended) {
  auto log = journal::open(dir.path());
  std::vector<std::byte> huge(journal::max_record_size + 1);
  auto e = thrown([&] { log.append(huge); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EMSGSIZE);
  EXPECT_EQ(log.next_lsn(), 1u);
  EXPECT_EQ(log.write(bytes_of("fine")), 1u);
}

// The spans of `texts`, as a batch for append().
std::vector<std::span<const std::byte>> batch_of(const std::vector<std::string>& texts) {
  std::vector<std::span<const std::byte>> batch;
  for (const std::string& text : texts) batch.push_back(bytes_of(text));
  return batch;
}

TEST_F(journal_basic, a_batch_takes_consecutive_lsns_and_reads_back_in_order) {
  auto log = journal::open(dir.path(), small_segments);
  write_records(log, 1, 3);
  std::vector<std::string> texts;
  for (std::uint64_t i = 4; i <= 80; ++i) texts.push_back(payload(i));  // past a segment
  std::uint64_t last = log.append(batch_of(texts));
  EXPECT_EQ(last, 80u);
  log.commit(last);
  EXPECT_EQ(read_records(log), expected_records(1, 80));
  EXPECT_EQ(log.append(batch_of({})), 80u) << "an empty batch appends nothing";
  EXPECT_EQ(log.next_lsn(), 81u);
}

TEST_F(journal_basic, a_batch_with_a_record_over_the_limit_appends_none_of_it) {
  auto log = journal::open(dir.path());
  std::vector<std::byte> huge(journal::max_record_size + 1);
  std::string fine = "fine";
  std::span<const std::byte> batch[] = {bytes_of(fine), huge, bytes_of(fine)};
  auto e = thrown([&] { log.append(std::span<const std::span<const std::byte>>(batch)); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EMSGSIZE);
  EXPECT_EQ(log.next_lsn(), 1u);
  EXPECT_EQ(log.write(bytes_of(fine)), 1u);
}

TEST_F(journal_basic, appended_records_are_read_only_once_committed) {
  auto log = journal::open(dir.path());
  auto a = log.append(bytes_of("a"));
  auto b = log.append(bytes_of("b"));
  EXPECT_TRUE(read_records(log).empty());
  log.commit(a);  // the leader takes everything pending: b too
  EXPECT_EQ(read_records(log), (std::vector<read_record>{{1, "a"}, {2, "b"}}));
  log.commit(b);
}

TEST_F(journal_basic, commit_of_an_lsn_not_appended_is_refused) {
  auto log = journal::open(dir.path());
  log.write(bytes_of("x"));
  auto e = thrown([&] { log.commit(2); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EINVAL);
  log.commit(1);  // already durable: returns at once
}

TEST_F(journal_basic, close_commits_what_was_appended) {
  {
    auto log = journal::open(dir.path());
    log.append(bytes_of("one"));
    log.append(bytes_of("two"));
    log.close();
    auto e = thrown([&] { log.append(bytes_of("late")); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->code().value(), EBADF);
  }
  auto log = journal::open(dir.path());
  EXPECT_EQ(read_records(log), (std::vector<read_record>{{1, "one"}, {2, "two"}}));
  EXPECT_EQ(log.next_lsn(), 3u);
}

TEST_F(journal_basic, a_moved_journal_keeps_working) {
  auto first = journal::open(dir.path());
  first.write(bytes_of("a"));
  journal second = std::move(first);
  EXPECT_FALSE(first.is_open());
  second.write(bytes_of("b"));
  EXPECT_EQ(read_records(second).size(), 2u);
}

// --- rotation and truncation ---------------------------------------------------

TEST_F(journal_basic, records_rotate_into_new_segments_and_survive_reopening) {
  {
    auto log = journal::open(dir.path(), small_segments);
    write_records(log, 1, 200);
    EXPECT_GT(segment_files(dir.path()).size(), 5u);
    for (const auto& path : segment_files(dir.path())) EXPECT_EQ(size_on_disk(path), 4096u);
    EXPECT_EQ(read_records(log), expected_records(1, 200));
    EXPECT_EQ(read_records(log, 123), expected_records(123, 200));
  }
  auto log = journal::open(dir.path(), small_segments);
  EXPECT_EQ(log.next_lsn(), 201u);
  write_records(log, 201, 220);
  EXPECT_EQ(read_records(log), expected_records(1, 220));
}

TEST_F(journal_basic, truncate_before_drops_whole_old_segments_only) {
  auto log = journal::open(dir.path(), small_segments);
  write_records(log, 1, 200);
  auto before = segment_files(dir.path()).size();
  log.truncate_before(100);
  auto first = log.first_lsn();
  EXPECT_GT(first, 1u);
  EXPECT_LE(first, 100u);
  EXPECT_LT(segment_files(dir.path()).size(), before);
  EXPECT_EQ(read_records(log, first), expected_records(first, 200));
  auto e = thrown([&] { log.read_from(first - 1); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), ERANGE);
  log.truncate_before(1'000'000);  // never the newest segment
  EXPECT_EQ(segment_files(dir.path()).size(), 1u);
  log.close();
  auto again = journal::open(dir.path(), small_segments);
  EXPECT_EQ(again.next_lsn(), 201u);
  auto kept = read_records(again, again.first_lsn());
  ASSERT_FALSE(kept.empty());
  EXPECT_EQ(kept.back(), (read_record{200, payload(200)}));
}

// --- the bytes on disk (docs/journal-format.md) --------------------------------

TEST_F(journal_basic, segments_hold_exactly_the_documented_bytes) {
  ASSERT_EQ(reference_crc32c("123456789"), 0xE3069283u);  // the standard check value
  {
    auto log = journal::open(dir.path(), {.segment_size = 8192});
    log.write(bytes_of("hello"));
  }
  auto segment = segment_files(dir.path()).front();
  EXPECT_EQ(segment.filename(), "0000000000000001.journal");
  std::string bytes = read_all(segment);
  ASSERT_EQ(bytes.size(), 8192u);  // preallocated, the size fixed from the start
  EXPECT_EQ(bytes.substr(0, 8), "SLUICEJL");
  EXPECT_EQ(little_endian(bytes, 8, 4), 3u);    // version
  EXPECT_EQ(little_endian(bytes, 12, 4), 64u);  // header size
  EXPECT_EQ(little_endian(bytes, 16, 8), 1u);   // segment number
  EXPECT_EQ(little_endian(bytes, 24, 8), 1u);   // first lsn
  EXPECT_EQ(little_endian(bytes, 32, 4),
            reference_crc32c(bytes.substr(0, 32) + bytes.substr(36, 28)));
  EXPECT_EQ(bytes.substr(36, 8), std::string(8, '\0'));  // flags and salt: not reused
  EXPECT_EQ(little_endian(bytes, 44, 8), 8192u);         // the segment's size
  EXPECT_EQ(bytes.substr(52, 12), std::string(12, '\0'));
  std::string_view record(bytes.data() + 64, 24 + 5);
  EXPECT_EQ(little_endian(record, 0, 4), 5u);   // length
  EXPECT_EQ(little_endian(record, 8, 8), 1u);   // lsn
  EXPECT_EQ(little_endian(record, 16, 8), 1u);  // durable mark: nothing before lsn 1
  std::string covered = std::string(record.substr(0, 4)) + std::string(record.substr(8));
  EXPECT_EQ(little_endian(record, 4, 4), reference_crc32c(covered));
  EXPECT_EQ(record.substr(24), "hello");
  EXPECT_EQ(bytes.substr(64 + 29), std::string(8192 - 64 - 29, '\0'));
}

// The records of a batch but its last carry the top bit of their length
// field; a segment whose successor exists is sealed right after its last
// record.
TEST_F(journal_basic, batches_and_seals_hold_exactly_the_documented_bytes) {
  std::string filler = pattern(4000, 9);
  {
    auto log = journal::open(dir.path(), {.segment_size = 4096});
    std::span<const std::byte> batch[] = {bytes_of("ab"), bytes_of("cd")};
    log.commit(log.append(batch));  // lsns 1 and 2
    log.write(bytes_of(filler));    // lsn 3: 4024 bytes do not fit after 116, nor in 4096
  }
  auto segments = segment_files(dir.path());
  ASSERT_EQ(segments.size(), 2u);
  std::string bytes = read_all(segments[0]);
  std::string_view first(bytes.data() + 64, 26), second(bytes.data() + 90, 26);
  EXPECT_EQ(little_endian(first, 0, 4), 2u | 0x80000000u);  // continued: lsn 2 follows
  EXPECT_EQ(little_endian(first, 8, 8), 1u);
  std::string covered = std::string(first.substr(0, 4)) + std::string(first.substr(8));
  EXPECT_EQ(little_endian(first, 4, 4), reference_crc32c(covered));  // the flag is covered
  EXPECT_EQ(little_endian(second, 0, 4), 2u);                        // the batch's last
  EXPECT_EQ(little_endian(second, 8, 8), 2u);
  std::string_view seal(bytes.data() + 116, 24);
  EXPECT_EQ(little_endian(seal, 0, 4), 0xFFFFFFFFu);
  EXPECT_EQ(little_endian(seal, 8, 8), 3u);   // the successor's first lsn
  EXPECT_EQ(little_endian(seal, 16, 8), 2u);  // the successor's number
  covered = std::string(seal.substr(0, 4)) + std::string(seal.substr(8));
  EXPECT_EQ(little_endian(seal, 4, 4), reference_crc32c(covered));
  EXPECT_EQ(bytes.substr(140), std::string(4096 - 140, '\0'));
  EXPECT_EQ(little_endian(read_all(segments[1]), 24, 8), 3u);
}

// --- recovery ------------------------------------------------------------------

TEST_F(journal_recovery, a_torn_tail_is_cut_and_appending_continues_after_it) {
  {
    auto log = journal::open(dir.path());
    write_records(log, 1, 10);
  }
  auto segment = segment_files(dir.path()).front();
  // Find record 10 by reading back: damage its last bytes, as a torn write would.
  auto content = read_all(segment);
  auto at = content.find(payload(10));
  ASSERT_NE(at, std::string::npos);
  damage(segment, at + 5, 3, '\x7f');
  {
    auto log = journal::open(dir.path());
    EXPECT_EQ(read_records(log), expected_records(1, 9));
    EXPECT_EQ(log.write(bytes_of(payload(10))), 10u);
    EXPECT_EQ(segment_files(dir.path()).size(), 2u);  // the torn segment is left behind
  }
  auto log = journal::open(dir.path());
  EXPECT_EQ(read_records(log), expected_records(1, 10));
}

TEST_F(journal_recovery, every_mode_opens_a_cleanly_closed_journal_and_keeps_its_segment) {
  {
    auto log = journal::open(dir.path(), small_segments);
    write_records(log, 1, 30);
  }
  auto segments = segment_files(dir.path()).size();
  for (auto mode : {recovery_mode::absolute_consistency, recovery_mode::salvage,
                    recovery_mode::tolerate_torn_tail}) {
    auto log = journal::open(dir.path(), {.segment_size = 4096, .recovery = mode});
    EXPECT_EQ(read_records(log), expected_records(1, 30));
    EXPECT_EQ(log.next_lsn(), 31u);
  }
  EXPECT_EQ(segment_files(dir.path()).size(), segments);  // no fresh segment for a clean end
}

TEST_F(journal_recovery, absolute_consistency_refuses_a_torn_tail) {
  {
    auto log = journal::open(dir.path());
    write_records(log, 1, 10);
  }
  auto segment = segment_files(dir.path()).front();
  auto at = read_all(segment).find(payload(10));
  damage(segment, at, 1, '\x01');
  auto e =
      thrown([&] { journal::open(dir.path(), {.recovery = recovery_mode::absolute_consistency}); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EILSEQ);
  EXPECT_NE(error_text(e).find(quoted(segment)), std::string::npos) << e->what();
  EXPECT_NE(error_text(e).find("record 10"), std::string::npos) << e->what();
}

// Recovery reads only where the filesystem says a segment may hold data; a
// byte written far into the preallocated rest must still be found, whether
// it waits in the page cache or was synced to the disk.
TEST_F(journal_recovery, a_byte_far_past_the_records_is_found_cached_or_synced) {
  for (bool synced : {false, true}) {
    SCOPED_TRACE(synced ? "synced" : "cached");
    std::filesystem::path where = dir.path() / (synced ? "synced" : "cached");
    {
      auto log = journal::open(where);
      write_records(log, 1, 10);
    }
    auto segment = segment_files(where).front();
    damage(segment, std::uint64_t{40} << 20, 1, '\x01');
    if (synced) sluice::file::open(segment, {.mode = sluice::open_mode::open_existing}).sync_all();
    auto e =
        thrown([&] { journal::open(where, {.recovery = recovery_mode::absolute_consistency}); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->code().value(), EILSEQ);
    EXPECT_NE(error_text(e).find("record 11 is torn or corrupt"), std::string::npos) << e->what();
    auto log = journal::open(where);
    EXPECT_EQ(read_records(log), expected_records(1, 10));
    EXPECT_EQ(segment_files(where).size(), 2u);  // not continued beside the stray byte
  }
}

TEST_F(journal_recovery, corruption_before_durable_records_is_an_error_naming_segment_and_offset) {
  {
    auto log = journal::open(dir.path());
    write_records(log, 1, 10);
  }
  auto segment = segment_files(dir.path()).front();
  auto content = read_all(segment);
  auto at = content.find(payload(4));
  damage(segment, at + 1, 1, '\x55');
  auto record_start = at - 24;
  auto e = thrown([&] { journal::open(dir.path()); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EILSEQ);
  EXPECT_NE(error_text(e).find(quoted(segment) + " at offset " + std::to_string(record_start)),
            std::string::npos)
      << e->what();
  // salvage keeps the prefix before the damage and goes on.
  auto log = journal::open(dir.path(), {.recovery = recovery_mode::salvage});
  EXPECT_EQ(read_records(log), expected_records(1, 3));
  EXPECT_EQ(log.write(bytes_of(payload(4))), 4u);
}

// Recovery looks for the proof through the whole data of the segment, not
// only next to the cut: here it lies 40 MiB on, past the unwritten blocks
// between, at an offset no record boundary would have.
TEST_F(journal_recovery, a_durable_record_far_past_the_corruption_is_still_found) {
  {
    auto log = journal::open(dir.path());
    write_records(log, 1, 10);
  }
  auto segment = segment_files(dir.path()).front();
  auto content = read_all(segment);
  auto fourth = content.find(payload(4)) - 24;
  auto tenth = content.find(payload(10)) - 24;
  std::string record_10 = content.substr(tenth, 24 + payload(10).size());
  damage(segment, fourth + 30, 1, '\x55');
  damage(segment, content.find(payload(5)) - 24,
         tenth + record_10.size() - (content.find(payload(5)) - 24), '\0');
  std::uint64_t far = (std::uint64_t{40} << 20) + 3;
  {
    std::fstream f(segment, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(far));
    f.write(record_10.data(), static_cast<std::streamsize>(record_10.size()));
    ASSERT_TRUE(f.good());
  }
  auto e = thrown([&] { journal::open(dir.path()); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EILSEQ);
  EXPECT_NE(error_text(e).find("record 4 is corrupt but record 10"), std::string::npos)
      << e->what();
}

TEST_F(journal_recovery, corruption_in_an_older_segment_is_an_error_and_salvage_cuts_there) {
  {
    auto log = journal::open(dir.path(), small_segments);
    write_records(log, 1, 100);
  }
  auto segments = segment_files(dir.path());
  ASSERT_GE(segments.size(), 3u);
  damage(segments[1], 64 + 30, 1, '\x55');  // inside the first record of segment 2
  auto e = thrown([&] { journal::open(dir.path(), small_segments); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EILSEQ);
  EXPECT_NE(error_text(e).find(quoted(segments[1]) + " at offset 64"), std::string::npos)
      << e->what();
  auto log = journal::open(dir.path(), {.segment_size = 4096, .recovery = recovery_mode::salvage});
  auto kept = read_records(log);
  ASSERT_FALSE(kept.empty());
  EXPECT_EQ(kept, expected_records(1, kept.size()));
  EXPECT_EQ(log.next_lsn(), kept.size() + 1);
  EXPECT_TRUE(std::filesystem::exists(segments[2].string() + ".corrupt"));
}

TEST_F(journal_recovery, a_leftover_temporary_segment_is_removed) {
  {
    auto log = journal::open(dir.path());
    write_records(log, 1, 3);
  }
  write_all(dir / "0000000000000002.journal.tmp", "half made");
  auto log = journal::open(dir.path());
  EXPECT_EQ(read_records(log), expected_records(1, 3));
  EXPECT_FALSE(std::filesystem::exists(dir / "0000000000000002.journal.tmp"));
}

// --- bad input -------------------------------------------------------------------

TEST_F(journal_bad_input, a_directory_with_other_files_is_not_a_journal) {
  write_all(dir / "notes.txt", "hello");
  auto e = thrown([&] { journal::open(dir.path()); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EINVAL);
  EXPECT_NE(error_text(e).find("not a journal directory"), std::string::npos) << e->what();
  EXPECT_EQ(read_all(dir / "notes.txt"), "hello");
}

TEST_F(journal_bad_input, a_file_where_the_directory_should_be_is_refused) {
  write_all(dir / "plain", "x");
  auto e = thrown([&] { journal::open(dir / "plain"); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), ENOTDIR);
}

TEST_F(journal_bad_input, a_zero_length_segment_is_refused) {
  write_all(dir / "0000000000000001.journal", "");
  auto e = thrown([&] { journal::open(dir.path()); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EINVAL);
  EXPECT_NE(error_text(e).find("empty file"), std::string::npos) << e->what();
}

TEST_F(journal_bad_input, a_wrong_magic_is_refused) {
  write_all(dir / "0000000000000001.journal", std::string(4096, 'x'));
  auto e = thrown([&] { journal::open(dir.path()); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EINVAL);
  EXPECT_NE(error_text(e).find("wrong magic"), std::string::npos) << e->what();
}

TEST_F(journal_bad_input, a_future_format_version_is_refused) {
  { journal::open(dir.path()).close(); }
  auto segment = segment_files(dir.path()).front();
  damage(segment, 8, 1, '\x04');  // version 4
  auto e = thrown([&] { journal::open(dir.path()); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EPROTONOSUPPORT);
  EXPECT_NE(error_text(e).find("newer"), std::string::npos) << e->what();
}

TEST_F(journal_bad_input, a_record_length_past_the_end_ends_the_log_without_reading_past_it) {
  {
    auto log = journal::open(dir.path(), small_segments);
    write_records(log, 1, 2);
  }
  auto segment = segment_files(dir.path()).front();
  auto at = read_all(segment).find(payload(2)) - 24;
  damage(segment, at, 4, '\xff');  // length 4 GiB - 1
  // Record 2 was durable, but nothing after it says so: a torn tail.
  auto log = journal::open(dir.path(), small_segments);
  EXPECT_EQ(read_records(log), expected_records(1, 1));
}

TEST_F(journal_bad_input, a_missing_segment_in_the_middle_is_an_error) {
  {
    auto log = journal::open(dir.path(), small_segments);
    write_records(log, 1, 100);
  }
  auto segments = segment_files(dir.path());
  ASSERT_GE(segments.size(), 3u);
  std::filesystem::remove(segments[1]);
  auto e = thrown([&] { journal::open(dir.path(), small_segments); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EILSEQ);
  EXPECT_NE(error_text(e).find("segment missing"), std::string::npos) << e->what();
}

TEST_F(journal_bad_input, a_segment_size_below_4_kib_is_refused) {
  auto e = thrown([&] { journal::open(dir.path(), {.segment_size = 100}); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EINVAL);
}

}  // namespace
