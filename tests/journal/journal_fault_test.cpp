// sluice::journal under injected failures (fake_sys): a failed write or sync
// poisons the journal, an fdatasync is never retried, and what a lone
// committer and recovery cost, and what recovery reads.
#include <gtest/gtest.h>

#ifndef _WIN32
#include <fcntl.h>
#endif

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sluice/sluice.hpp>
#include <string>
#include <thread>
#include <vector>

#include "support/fake_sys.hpp"
#include "support/filesystem.hpp"
#include "support/journal_test_support.hpp"
#include "support/platform.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::journal;
using sluice::journal_options;
using sluice::detail::filesystem;

using journal_fault = dir_test;

// Every record read back is record i with payload(i), from 1 on.
void expect_clean_prefix(const std::vector<read_record>& records) {
  for (std::size_t i = 0; i < records.size(); ++i)
    EXPECT_EQ(records[i], (read_record{i + 1, payload(i + 1)}));
}

void expect_poisoned(journal& log, int error) {
  auto e = thrown([&] { log.append(bytes_of("more")); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), error);
  EXPECT_NE(std::string(e->what()).find("refused"), std::string::npos) << e->what();
  e = thrown([&] { log.commit(1); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), error);
  e = thrown([&] { log.read_from(1); });
  ASSERT_TRUE(e);
  e = thrown([&] { log.close(); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), error);
}

TEST_F(journal_fault, a_lone_committer_pays_one_write_and_one_fdatasync) {
  auto log = journal::open(dir.path());
  fake_sys fake;
  for (int i = 1; i <= 10; ++i) log.append(bytes_of(payload(i)));
  log.commit(10);
  EXPECT_EQ(fake.calls(call::write_at), 1);
  EXPECT_EQ(fake.calls(call::sync_data), 1);
  log.commit(3);  // already durable: no system call
  EXPECT_EQ(fake.log().size(), 2u);
}

TEST_F(journal_fault, recovery_reads_each_small_segment_once) {
  {
    auto log = journal::open(dir.path(), {.segment_size = 4096});
    for (int i = 1; i <= 60; ++i) log.write(bytes_of(payload(i)));
  }
  std::size_t segments = segment_files(dir.path()).size();
  ASSERT_GE(segments, 3u);
  fake_sys fake;
  auto log = journal::open(dir.path(), {.segment_size = 4096});
  // Header, records and the zeros after the last one: one pread per segment.
  EXPECT_EQ(fake.calls(call::read_at), static_cast<int>(segments));
  EXPECT_EQ(read_records(log).size(), 60u);
}

// Whether this filesystem tells preallocated blocks from written ones
// through the backend's seek_region (SEEK_DATA on Linux: ext4 and XFS do;
// some report everything as data): no data at all in a preallocated file
// (ENXIO). A backend that refuses seek_region (EINVAL, as the Win32 one
// does) tells nothing.
bool seek_data_skips_preallocated(const std::filesystem::path& dir) {
  auto probe = sluice::file::open(dir / "probe", {.mode = sluice::open_mode::create_new});
  if (thrown([&] { probe.preallocate(0, std::uint64_t{1} << 20); })) return false;
  bool skips = sluice::detail::real_sys().seek_region(probe.native_handle(), 0,
                                                      sluice::detail::region::data) < 0 &&
               errno == ENXIO;
  probe.close();
  std::filesystem::remove(dir / "probe");
  return skips;
}

TEST_F(journal_fault, reopening_reads_the_records_not_the_preallocated_rest) {
  if (auto why = needs_preallocation(dir.path()); !why.empty()) GTEST_SKIP() << why;
  if (!seek_data_skips_preallocated(dir.path()))
    GTEST_SKIP() << "the backend does not tell preallocated blocks from data here (seek_region)";
  std::filesystem::path where = dir.path() / "log";
  {
    fake_sys fallocated;              // not zeroed by the disk, whatever it can
    auto log = journal::open(where);  // one 64 MiB segment
    for (int i = 1; i <= 100; ++i) log.write(bytes_of(payload(i)));
  }
  auto segment = segment_files(where).front();
  // Reading it all caches the zeros of its unwritten blocks, as a backup
  // tool's read would; SEEK_DATA counts cached pages as data.
  ASSERT_EQ(read_all(segment).size(), std::size_t{64} << 20);
  for (int round = 0; round < 2; ++round) {
    fake_sys fake;
    std::size_t read = 0;
    fake.on_read_at([&](auto, std::int64_t, std::size_t requested) {
      read += requested;
      return transfer_action{};
    });
    auto log = journal::open(where);
    EXPECT_LE(read, std::size_t{4} << 20) << "round " << round;
    EXPECT_EQ(read_records(log).size(), 100u);
  }
}

TEST_F(journal_fault, without_seek_data_recovery_reads_the_whole_rest) {
  std::filesystem::path where = dir.path() / "log";
  {
    auto log = journal::open(where, {.segment_size = std::uint64_t{8} << 20});
    log.write(bytes_of(payload(1)));
  }
  auto segment = segment_files(where).front();
  {
    std::fstream f(segment, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(std::streamoff{6} << 20);
    f.put('\x01');
    ASSERT_TRUE(f.good());
  }
  fake_sys fake;
  for (int nth : {1, 2}) fake.fail(call::seek_region, nth, EINVAL);  // as where it cannot say
  std::size_t read = 0;
  fake.on_read_at([&](auto, std::int64_t, std::size_t requested) {
    read += requested;
    return transfer_action{};
  });
  auto e = thrown([&] {
    journal::open(where, {.segment_size = std::uint64_t{8} << 20,
                          .recovery = sluice::recovery_mode::absolute_consistency});
  });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EILSEQ);
  EXPECT_GE(read, std::size_t{6} << 20);  // read on up to the stray byte
}

// Three 4 MiB segments of 100 KiB records (40 a segment, 20 in the third),
// garbage in the first at 2 MiB (inside record 21), and every read of the
// third that reaches beyond its first MiB fails with EIO. Recovery never reaches the
// third segment's records: it cuts at record 21 of the first, so only the
// third's header is read, and the failure must not surface.
TEST_F(journal_fault, recovery_reads_no_records_past_a_cut) {
  constexpr std::uint64_t segment_size = std::uint64_t{4} << 20;
  constexpr std::size_t record_payload = 100 * 1024 - 24;  // a record of 100 KiB
  {
    auto log = journal::open(dir.path(), {.segment_size = segment_size});
    for (std::uint64_t i = 1; i <= 100; ++i)
      ASSERT_EQ(log.write(bytes_of(pattern(record_payload, i))), i);
  }
  std::vector<std::filesystem::path> segments = segment_files(dir.path());
  ASSERT_EQ(segments.size(), 3u);
  {
    std::fstream f(segments[0], std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(std::streamoff{2} << 20);
    f.write("garbage garbage!", 16);
    ASSERT_TRUE(f.good());
  }
  fake_sys fake;
  int third_read_beyond = 0;
  file_identity third = identity_of(segments[2]);  // whatever recovery renames it
  fake.on_read_at([&](auto fd, std::int64_t offset, std::size_t requested) {
    sluice::detail::file_facts facts;
    bool in_third = sluice::detail::real_sys().facts(fd, &facts) == 0 &&
                    file_identity{facts.device, facts.inode} == third;
    if (in_third && offset + static_cast<std::int64_t>(requested) > std::int64_t{1} << 20) {
      ++third_read_beyond;
      return transfer_action{.what = transfer_action::fail, .error = EIO};
    }
    return transfer_action{};
  });
  const std::string cut = "record 21 is corrupt but the next segment starts at lsn 41";
  for (auto mode :
       {sluice::recovery_mode::tolerate_torn_tail, sluice::recovery_mode::absolute_consistency}) {
    auto e = thrown(
        [&] { journal::open(dir.path(), {.segment_size = segment_size, .recovery = mode}); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->code().value(), EILSEQ) << e->what();
    EXPECT_NE(std::string(e->what()).find(segments[0].string()), std::string::npos) << e->what();
    EXPECT_NE(std::string(e->what()).find(cut), std::string::npos) << e->what();
  }
  auto log = journal::open(
      dir.path(), {.segment_size = segment_size, .recovery = sluice::recovery_mode::salvage});
  EXPECT_EQ(third_read_beyond, 0);
  EXPECT_EQ(log.next_lsn(), 21u);
  std::vector<read_record> records = read_records(log);
  ASSERT_EQ(records.size(), 20u);
  for (std::uint64_t i = 1; i <= 20; ++i)
    EXPECT_EQ(records[i - 1], (read_record{i, pattern(record_payload, i)}));
  EXPECT_TRUE(std::filesystem::exists(segments[1].string() + ".corrupt"));
  EXPECT_TRUE(std::filesystem::exists(segments[2].string() + ".corrupt"));
}

std::size_t bytes_written(const fake_sys& fake) {
  std::size_t total = 0;
  for (const auto& write : fake.writes_at()) total += write.requested;
  return total;
}

TEST_F(journal_fault, zero_fill_writes_each_new_segment_once_and_the_default_does_not) {
  constexpr std::uint64_t size = 64 * 1024;
  {
    fake_sys fake;
    auto log = journal::open(dir / "reserved", {.segment_size = size});
    EXPECT_EQ(bytes_written(fake), 64u);  // the header only
  }
  fake_sys fake;
  auto log = journal::open(dir / "filled", {.segment_size = size, .zero_fill = true});
  EXPECT_EQ(bytes_written(fake), size + 64);
  for (int i = 1; i <= 400; ++i) log.write(bytes_of(payload(i)));
  EXPECT_GT(segment_files(dir / "filled").size(), 1u);
  log.close();
  auto again = journal::open(dir / "filled", {.segment_size = size, .zero_fill = true});
  auto records = read_records(again);
  ASSERT_EQ(records.size(), 400u);
  expect_clean_prefix(records);
}

// On ext4 (and XFS, the same row of journal/filesystems.cpp) each commit's
// one pwritev carries, once its records pass the zeros written so far,
// 256 KiB of zeros after them (never past the segment's end), so that the
// commits after it overwrite written blocks; commits into a zero-filled
// segment write their records only.
TEST_F(journal_fault, the_default_writes_zeros_ahead_of_its_records) {
  constexpr std::uint64_t segment = std::uint64_t{4} << 20;
  constexpr std::uint64_t header = 64, record = 64 * 1024, ahead = 256 * 1024;
  const std::string value(record - 24, 'v');
  {
    fake_sys fake;  // refuses to have the disk zero the segments
    fake.report_filesystem(filesystem::ext4);
    auto log = journal::open(dir / "reserved", {.segment_size = segment});
    for (int i = 1; i <= 100; ++i) log.write(bytes_of(value));  // 63 in a segment, then 37
    std::uint64_t zeroed = header, records_end = header, previous_end = 0;
    int crossings = 0, seals = 0;
    for (const auto& write : fake.writes_at()) {
      if (write.offset == 0) {  // a new segment's header: nothing after it is written
        previous_end = records_end;
        zeroed = records_end = header;
        continue;
      }
      if (static_cast<std::uint64_t>(write.offset) == previous_end && write.requested < record) {
        ++seals;  // then the seal, right after the previous segment's records
        continue;
      }
      std::uint64_t end = static_cast<std::uint64_t>(write.offset) + record;
      records_end = end;
      std::uint64_t expected =
          end <= zeroed ? record : std::min(segment, end + ahead) - write.offset;
      crossings += expected != record;
      EXPECT_EQ(write.requested, expected) << "the write at " << write.offset;
      zeroed = std::max(zeroed, static_cast<std::uint64_t>(write.offset) + write.requested);
    }
    // Every fifth record passes the zeros: the 1st, 6th, ... 61st of a
    // segment, the last one's zeros cut at the segment's end.
    EXPECT_EQ(crossings, 13 + 8);
    EXPECT_EQ(seals, 1);
    log.close();
    auto again = journal::open(dir / "reserved", {.segment_size = segment});
    EXPECT_EQ(read_records(again).size(), 100u);
  }
  fake_sys fake;
  fake.report_filesystem(filesystem::ext4);
  auto log = journal::open(dir / "filled", {.segment_size = segment, .zero_fill = true});
  std::size_t opening = bytes_written(fake);
  for (int i = 1; i <= 50; ++i) log.write(bytes_of(value));  // all in the first segment
  EXPECT_EQ(bytes_written(fake) - opening, 50 * record);
}

// Where the disk zeroes blocks without writing them (FALLOC_FL_WRITE_ZEROES),
// a new segment's are, and the journal writes no zeros of its own: not when
// creating it, not even with zero_fill, and not ahead of the records. As its
// pages are not cached, each batch is padded with zeros to its page end, so
// that no write ends inside an uncached page.
TEST_F(journal_fault, a_segment_the_disk_zeroed_gets_only_page_end_padding) {
  constexpr std::uint64_t segment = 64 * 1024, page = 4096, header = 64;
  constexpr std::uint64_t largest_record = 40 + 299 + 24;  // payload(i)'s framed
  for (bool zero_fill : {false, true}) {
    std::filesystem::path where = dir / (zero_fill ? "filled" : "reserved");
    fake_sys fake;
    fake.report_filesystem(filesystem::ext4);
    fake.zero_by_disk();
    auto log = journal::open(where, {.segment_size = segment, .zero_fill = zero_fill});
    EXPECT_EQ(bytes_written(fake), header) << "zero_fill " << zero_fill;
    for (int i = 1; i <= 1000; ++i) log.write(bytes_of(payload(i)));
    ASSERT_GT(segment_files(where).size(), 2u);
    for (const auto& write : fake.writes_at()) {
      if (write.offset == 0 && write.requested == header) continue;  // a segment's header
      std::uint64_t end = static_cast<std::uint64_t>(write.offset) + write.requested;
      EXPECT_EQ(end % page, 0u) << "the write at " << write.offset;
      EXPECT_LT(write.requested, largest_record + page) << "the write at " << write.offset;
    }
    log.close();
    {
      auto again = journal::open(where, {.segment_size = segment, .zero_fill = zero_fill});
      ASSERT_EQ(read_records(again).size(), 1000u);
      for (int i = 1001; i <= 1200; ++i) again.write(bytes_of(payload(i)));
    }
    auto third = journal::open(where, {.segment_size = segment, .zero_fill = zero_fill});
    auto records = read_records(third);
    ASSERT_EQ(records.size(), 1200u);
    expect_clean_prefix(records);
  }
}

// A reopened journal writes zeros ahead only past the written blocks that
// follow its last record: after the zeros its last commit wrote ahead, or,
// in a zero-filled segment, not at all.
TEST_F(journal_fault, a_reopened_segment_gets_zeros_ahead_only_past_its_written_blocks) {
  if (auto why = needs_preallocation(dir.path()); !why.empty()) GTEST_SKIP() << why;
  if (!seek_data_skips_preallocated(dir.path()))
    GTEST_SKIP() << "the backend does not tell preallocated blocks from data here (seek_region)";
  constexpr std::uint64_t segment = std::uint64_t{1} << 20, ahead = 256 * 1024;
  const std::string value(ahead / 4 - 24, 'v');  // records of 64 KiB
  for (bool zero_fill : {false, true}) {
    std::filesystem::path where = dir / (zero_fill ? "filled" : "reserved");
    journal_options options{.segment_size = segment, .zero_fill = zero_fill};
    {
      fake_sys fallocated;  // not zeroed by the disk, whatever it can
      fallocated.report_filesystem(filesystem::ext4);
      journal::open(where, options).write(bytes_of(value));
    }
    fake_sys fake;
    fake.report_filesystem(filesystem::ext4);
    auto log = journal::open(where, options);
    for (int i = 2; i <= 6; ++i) log.write(bytes_of(value));
    std::vector<std::size_t> sizes;
    for (const auto& write : fake.writes_at()) sizes.push_back(write.requested);
    // The first commit wrote zeros ahead to 64 + 64 KiB + 256 KiB, whose
    // last block the 6th record passes: only its commit carries zeros.
    std::vector<std::size_t> expected(5, ahead / 4);
    if (!zero_fill) expected[4] += ahead;
    EXPECT_EQ(sizes, expected) << "zero_fill " << zero_fill;
    log.close();
    auto again = journal::open(where, options);
    EXPECT_EQ(read_records(again).size(), 6u);
  }
}

#ifndef _WIN32
// A hole right after the last record (here punched into a zero-filled
// segment whose record ends on a page boundary): zeros ahead from there.
TEST_F(journal_fault, a_hole_right_after_the_last_record_gets_zeros_ahead) {
  if (auto why = needs_preallocation(dir.path()); !why.empty()) GTEST_SKIP() << why;
  if (!seek_data_skips_preallocated(dir.path()))
    GTEST_SKIP() << "the backend does not tell preallocated blocks from data here (seek_region)";
  constexpr std::uint64_t page = 4096, ahead = 256 * 1024;
  journal_options options{.segment_size = std::uint64_t{1} << 20, .zero_fill = true};
  const std::string first(page - 64 - 24, 'f');  // ends at 4096
  {
    fake_sys fallocated;  // not zeroed by the disk, whatever it can
    fallocated.report_filesystem(filesystem::ext4);
    journal::open(dir.path(), options).write(bytes_of(first));
  }
  {
    auto segment = sluice::file::open(segment_files(dir.path()).front(),
                                      {.mode = sluice::open_mode::open_existing});
    ASSERT_EQ(::fallocate(segment.native_handle(), FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, page,
                          2 * page),
              0);
  }
  fake_sys fake;
  fake.report_filesystem(filesystem::ext4);
  auto log = journal::open(dir.path(), options);
  log.write(bytes_of(payload(2)));
  ASSERT_EQ(fake.writes_at().size(), 1u);
  EXPECT_EQ(fake.writes_at().front().requested, payload(2).size() + 24 + ahead);
}
#else
SLUICE_SKIPPED_ON_WINDOWS_F(journal_fault, a_hole_right_after_the_last_record_gets_zeros_ahead,
                            "punches a hole with fallocate(2)")
#endif

// EINTR before the disk zeroed anything: the call is made again.
TEST_F(journal_fault, an_interrupted_disk_zeroing_is_asked_again) {
  fake_sys fake;
  fake.report_filesystem(filesystem::ext4);
  fake.zero_by_disk();
  fake.fail(call::preallocate, 1, EINTR);
  auto log = journal::open(dir.path());
  EXPECT_EQ(fake.calls(call::preallocate), 2);
  log.write(bytes_of(payload(1)));
  EXPECT_EQ(fake.writes_at().back().requested, 4096u - 64);  // to the page end, no zeros ahead
}

// A disk or filesystem that refuses to zero (EOPNOTSUPP, or EINVAL from one
// that does not know the mode) leaves fallocate and zeros ahead; any other
// failure of that fallocate fails the open, naming the segment.
TEST_F(journal_fault, a_refused_disk_zeroing_falls_back_and_a_failed_one_throws) {
  for (int refusal : {EOPNOTSUPP, EINVAL}) {
    std::filesystem::path where = dir / std::to_string(refusal);
    fake_sys fake;
    fake.report_filesystem(filesystem::ext4);
    fake.zero_by_disk();
    fake.fail(call::preallocate, 1, refusal);
    auto log = journal::open(where);
    EXPECT_EQ(fake.calls(call::preallocate), 2);  // then the plain one
    log.write(bytes_of(payload(1)));
    ASSERT_FALSE(fake.writes_at().empty());
    EXPECT_EQ(fake.writes_at().back().requested, payload(1).size() + 24 + 256 * 1024);
  }
  fake_sys fake;
  fake.report_filesystem(filesystem::ext4);
  fake.zero_by_disk();
  fake.fail(call::preallocate, 1, EIO);
  auto e = thrown([&] { journal::open(dir / "failing"); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_NE(std::string(e->what()).find("preallocate"), std::string::npos) << e->what();
  EXPECT_NE(std::string(e->what()).find(".journal.tmp"), std::string::npos) << e->what();
}

// The segment shrinks under a reader: its first read ends inside the first
// record, and the next finds the end of the file.
TEST_F(journal_fault, a_record_the_file_ends_inside_is_reported_as_cut_short) {
  auto log = journal::open(dir.path());
  log.write(bytes_of(payload(1)));
  fake_sys fake;
  constexpr std::size_t header = 64, into_record = 30;
  int reads = 0;
  fake.on_read_at([&](auto, std::int64_t, std::size_t) {
    std::size_t bytes = ++reads == 1 ? header + into_record : 0;
    return transfer_action{transfer_action::partial, 0, bytes};
  });
  auto e = thrown([&] { read_records(log); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EILSEQ);
  EXPECT_NE(std::string(e->what()).find("record 1 is cut short"), std::string::npos) << e->what();
}

TEST_F(journal_fault, a_failed_fdatasync_poisons_the_journal_and_is_never_retried) {
  fake_sys fake;
  auto log = journal::open(dir.path());
  for (int i = 1; i <= 3; ++i) log.write(bytes_of(payload(i)));
  fake.fail(call::sync_data, fake.calls(call::sync_data) + 1, EIO);
  auto e = thrown([&] { log.write(bytes_of(payload(4))); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_NE(std::string(e->what()).find("fdatasync"), std::string::npos) << e->what();
  int syncs = fake.calls(call::sync_data);
  expect_poisoned(log, EIO);
  EXPECT_EQ(fake.calls(call::sync_data), syncs);
  // Reopening recovers a clean prefix holding every committed record.
  auto again = journal::open(dir.path());
  auto records = read_records(again);
  EXPECT_GE(records.size(), 3u);
  expect_clean_prefix(records);
}

// The one form of the sticky error (as for file and writer): a later call
// is refused naming the operation, the journal and the failure; close()
// throws the failure itself, as the commit that met it did; the destructor
// does not report it again.
TEST_F(journal_fault, after_a_failed_sync_calls_are_refused_naming_it_and_close_throws_it) {
  std::string printed = stderr_of([&] {
    fake_sys fake;
    auto log = journal::open(dir.path());
    log.write(bytes_of(payload(1)));
    fake.fail(call::sync_data, fake.calls(call::sync_data) + 1, EIO);
    auto first = thrown([&] { log.write(bytes_of(payload(2))); });
    ASSERT_TRUE(first);
    std::string failure = first->what();
    // (dir / "": the directory and the platform's separator after it)
    ASSERT_EQ(failure.rfind("sluice: fdatasync '" + (dir.path() / "").string(), 0), 0u) << failure;
    failure.erase(0, std::string("sluice: ").size());
    auto refused = thrown([&] { log.append(bytes_of("more")); });
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->code().value(), EIO);
    EXPECT_EQ(std::string(refused->what()), "sluice: append to journal " + quoted(dir.path()) +
                                                " refused after an earlier failure: " + failure);
    auto closed = thrown([&] { log.close(); });
    ASSERT_TRUE(closed);
    EXPECT_EQ(closed->code().value(), EIO);
    EXPECT_STREQ(closed->what(), first->what());
    log.close();  // closed already: nothing more
  });
  EXPECT_EQ(printed, "");
}

TEST_F(journal_fault, the_destructor_does_not_report_again_a_failure_a_commit_threw) {
  std::string printed = stderr_of([&] {
    fake_sys fake;
    auto log = journal::open(dir.path());
    fake.fail(call::sync_data, fake.calls(call::sync_data) + 1, EIO);
    EXPECT_TRUE(thrown([&] { log.write(bytes_of(payload(1))); }));
  });
  EXPECT_EQ(printed, "");
}

// A failure nobody was thrown, met by the destructor's own commit, is
// reported once, in the form every destructor reports in.
TEST_F(journal_fault,
       the_destructor_reports_a_failure_of_its_own_commit_once_in_the_documented_form) {
  std::string segment;
  std::string printed = stderr_of([&] {
    fake_sys fake;
    auto log = journal::open(dir.path());
    log.append(bytes_of(payload(1)));
    segment = segment_files(dir.path()).back().string();
    fake.fail(call::sync_data, fake.calls(call::sync_data) + 1, EIO);
  });
  EXPECT_EQ(printed, "sluice: close " + quoted(dir.path()) + " in its destructor: fdatasync '" +
                         segment + "': " + std::strerror(EIO) + "\n");
}

TEST_F(journal_fault, enospc_on_the_write_poisons_the_journal) {
  fake_sys fake;
  auto log = journal::open(dir.path());
  log.write(bytes_of(payload(1)));
  fake.fail(call::write_at, fake.calls(call::write_at) + 1, ENOSPC);
  auto e = thrown([&] { log.write(bytes_of(payload(2))); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), ENOSPC);
  EXPECT_NE(std::string(e->what()).find("write"), std::string::npos) << e->what();
  expect_poisoned(log, ENOSPC);
  auto again = journal::open(dir.path());
  EXPECT_EQ(read_records(again), (std::vector<read_record>{{1, payload(1)}}));
}

TEST_F(journal_fault, a_short_write_is_continued_and_then_a_failure_poisons) {
  fake_sys fake;
  auto log = journal::open(dir.path());
  int writes = fake.calls(call::write_at);
  fake.short_transfer(call::write_at, writes + 1, 10);
  log.write(bytes_of(payload(1)));  // continued: one more pwritev
  EXPECT_EQ(fake.calls(call::write_at), writes + 2);
  fake.short_transfer(call::write_at, writes + 3, 7);
  fake.fail(call::write_at, writes + 4, ENOSPC);
  auto e = thrown([&] { log.write(bytes_of(payload(2))); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), ENOSPC);
  expect_poisoned(log, ENOSPC);
  auto again = journal::open(dir.path());
  EXPECT_EQ(read_records(again), (std::vector<read_record>{{1, payload(1)}}));
}

TEST_F(journal_fault, a_failure_creating_the_next_segment_poisons_and_recovery_cleans_up) {
  fake_sys fake;
  auto log = journal::open(dir.path(), {.segment_size = 4096});
  int opens = fake.calls(call::open);
  fake.fail(call::rename, fake.calls(call::rename) + 1, EIO);
  std::optional<std::system_error> e;
  std::uint64_t i = 1;
  for (; i < 100 && !e; ++i) e = thrown([&] { log.write(bytes_of(payload(i))); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_GT(fake.calls(call::open), opens);
  expect_poisoned(log, EIO);
  auto again = journal::open(dir.path(), {.segment_size = 4096});
  auto records = read_records(again);
  EXPECT_GE(records.size(), i - 2);  // every record whose write returned
  expect_clean_prefix(records);
}

// The seal is written into the old segment once its successor exists: its
// failure poisons the journal like any failed write, and the successor,
// durable already, stays the newest segment, empty.
TEST_F(journal_fault, a_failed_seal_poisons_and_recovery_keeps_every_record) {
  fake_sys fake;
  auto log = journal::open(dir.path(), {.segment_size = 4096});
  int renames = fake.calls(call::rename);
  bool failed = false;
  fake.on_write_at([&](int, std::size_t) {
    if (failed || fake.calls(call::rename) == renames) return transfer_action{};
    failed = true;  // the first write after the successor's rename: the seal
    return transfer_action{transfer_action::fail, EIO};
  });
  std::optional<std::system_error> e;
  std::uint64_t i = 1;
  for (; i < 100 && !e; ++i) e = thrown([&] { log.write(bytes_of(payload(i))); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_NE(error_text(e).find("0000000000000001.journal"), std::string::npos) << e->what();
  expect_poisoned(log, EIO);
  auto again = journal::open(dir.path(), {.segment_size = 4096});
  EXPECT_EQ(segment_files(dir.path()).size(), 2u);
  auto records = read_records(again);
  EXPECT_GE(records.size(), i - 2);  // every record whose write returned
  expect_clean_prefix(records);
}

// A truncate_before() that fails part way leaves the journal its segments
// still on disk: a later one goes on from there and no gap opens in their
// numbers, which would make the journal fail to reopen.
TEST_F(journal_fault, a_failed_truncate_keeps_the_segments_it_did_not_drop) {
  for (call failing : {call::remove, call::rename}) {
    SCOPED_TRACE(failing == call::remove ? "unlink" : "rename to the spare");
    std::filesystem::path where = dir.path() / (failing == call::remove ? "unlink" : "rename");
    fake_sys fake;
    auto log = journal::open(where, {.segment_size = 4096, .reuse_segments = true});
    write_records(log, 1, 120);
    ASSERT_GE(segment_files(where).size(), 4u);
    int nth = failing == call::remove ? 2 : 1;  // the second removal, or the rename to the spare
    fake.fail(failing, fake.calls(failing) + nth, EIO);
    auto e = thrown([&] { log.truncate_before(121); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->code().value(), EIO);
    EXPECT_EQ(read_records(log, log.first_lsn()), expected_records(log.first_lsn(), 120));
    log.truncate_before(121);
    EXPECT_EQ(segment_files(where).size(), 1u);
    write_records(log, 121, 200);
    log.close();
    auto again = journal::open(where, {.segment_size = 4096, .reuse_segments = true});
    EXPECT_EQ(read_records(again, again.first_lsn()), expected_records(again.first_lsn(), 200));
  }
}

// The rename to the spare is durable only after the directory fsync: if
// that fails, the spare is not used (a segment made from it rewrites its
// header, which could then reappear under the segment's old name). The
// next open removes or keeps the spare file by the usual rules.
TEST_F(journal_fault, a_spare_whose_directory_sync_failed_is_not_reused) {
  fake_sys fake;
  journal_options options{.segment_size = 4096, .reuse_segments = true};
  auto log = journal::open(dir.path(), options);
  write_records(log, 1, 120);
  fake.fail(call::sync_directory, fake.calls(call::sync_directory) + 1, EIO);
  auto e = thrown([&] { log.truncate_before(121); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  std::uint64_t last = 121;
  for (auto segments = segment_files(dir.path()).size();
       segment_files(dir.path()).size() == segments; ++last)
    write_records(log, last, last);
  std::string newest = read_all(segment_files(dir.path()).back());
  EXPECT_EQ(little_endian(newest, 36, 4), 0u);  // a fresh segment, not the spare
  log.close();
  auto again = journal::open(dir.path(), options);
  EXPECT_EQ(read_records(again, again.first_lsn()), expected_records(again.first_lsn(), last - 1));
}

TEST_F(journal_fault, every_waiting_committer_sees_the_failure) {
  fake_sys fake;
  auto log = journal::open(dir.path());
  int syncs = fake.calls(call::sync_data);
  fake.fail(call::sync_data, syncs + 1, EIO);
  constexpr int threads = 6;
  std::vector<int> errors(threads, 0);
  std::vector<std::thread> committers;
  for (int t = 0; t < threads; ++t)
    committers.emplace_back([&, t] {
      try {
        for (int i = 0; i < 20; ++i) log.write(bytes_of(payload(t * 100 + i)));
      } catch (const std::system_error& e) {
        errors[t] = e.code().value();
      }
    });
  for (auto& thread : committers) thread.join();
  for (int t = 0; t < threads; ++t) EXPECT_EQ(errors[t], EIO) << "thread " << t;
  // The failed sync, never retried, and at most one other that was already
  // under way beside it (two may be in flight); none once it had failed.
  EXPECT_LE(fake.calls(call::sync_data), syncs + 2);
  auto e = thrown([&] { log.close(); });
  ASSERT_TRUE(e);
}

}  // namespace
