// Damage no crash can cause must never pass for a torn tail: a segment cut
// short or grown, a newest segment deleted (its predecessor is sealed once
// it exists), a batch cut in half. And journals of the older formats, which
// have neither sizes nor seals nor batch marks, are still read, and go on in
// a segment of the current format.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <filesystem>
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

using journal_damage = dir_test;
using journal_batch = dir_test;
using journal_legacy = dir_test;

constexpr journal_options small{.segment_size = 4096};

journal_options in_mode(recovery_mode mode) { return {.segment_size = 4096, .recovery = mode}; }

constexpr recovery_mode strict_modes[] = {recovery_mode::tolerate_torn_tail,
                                          recovery_mode::absolute_consistency};

// Writes records 1 to `last` into a journal of 4 KiB segments at `dir`.
void make_journal(const std::filesystem::path& dir, std::uint64_t last) {
  auto log = journal::open(dir, small);
  write_records(log, 1, last);
  log.close();
}

// The offset just after the first record of `segment`.
std::uint64_t after_first_record(const std::filesystem::path& segment) {
  return 64 + 24 + little_endian(read_all(segment), 64, 4);
}

// Opens `dir` in salvage mode: it must keep records 1 to some `kept` of
// `last`, write on, and reopen in the default mode with all of it. Returns
// `kept`.
std::uint64_t salvage_and_write_on(const std::filesystem::path& dir, std::uint64_t last) {
  std::uint64_t kept;
  std::vector<read_record> expected;
  {
    auto log = journal::open(dir, in_mode(recovery_mode::salvage));
    expected = read_records(log);
    kept = expected.size();
    EXPECT_LT(kept, last);
    EXPECT_EQ(expected, expected_records(1, kept));
    for (std::uint64_t i = kept + 1; i <= kept + 5; ++i)
      expected.push_back({log.write(bytes_of(payload(i))), payload(i)});
    log.close();
  }
  auto log = journal::open(dir, small);
  EXPECT_EQ(read_records(log), expected);
  return kept;
}

TEST_F(journal_damage, a_newest_segment_cut_short_is_an_error_in_every_mode_but_salvage) {
  make_journal(dir / "original", 100);
  auto newest = segment_files(dir / "original").back();
  std::uint64_t inside_last = read_all(newest).find_last_not_of('\0');  // the last record's end
  ASSERT_GT(inside_last, after_first_record(newest));
  for (std::uint64_t cut : {after_first_record(newest), std::uint64_t{64}, inside_last}) {
    SCOPED_TRACE("cut to " + std::to_string(cut) + " bytes");
    std::filesystem::remove_all(dir / "log");
    std::filesystem::copy(dir / "original", dir / "log");
    std::filesystem::resize_file(dir / "log" / newest.filename(), cut);
    for (recovery_mode mode : strict_modes) {
      auto e = thrown([&] { journal::open(dir / "log", in_mode(mode)); });
      ASSERT_TRUE(e) << "mode " << static_cast<int>(mode);
      EXPECT_EQ(e->code().value(), EILSEQ);
      EXPECT_NE(error_text(e).find(quoted(dir / "log" / newest.filename()) + " at offset " +
                                   std::to_string(cut) + ": the segment is " + std::to_string(cut) +
                                   " bytes but was made 4096 bytes long: it was cut short"),
                std::string::npos)
          << e->what();
    }
    salvage_and_write_on(dir / "log", 100);
  }
}

TEST_F(journal_damage, an_older_segment_cut_short_or_grown_is_an_error) {
  make_journal(dir.path(), 100);
  auto oldest = segment_files(dir.path()).front();
  std::string content = read_all(oldest);
  std::filesystem::resize_file(oldest, 4000);
  auto e = thrown([&] { journal::open(dir.path(), small); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EILSEQ);
  EXPECT_NE(error_text(e).find("it was cut short"), std::string::npos) << e->what();

  write_all(oldest, content + "more");
  e = thrown([&] { journal::open(dir.path(), small); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EILSEQ);
  EXPECT_NE(error_text(e).find("bytes were added to it"), std::string::npos) << e->what();
}

TEST_F(journal_damage, a_deleted_newest_segment_is_an_error_in_every_mode_but_salvage) {
  make_journal(dir / "log", 100);
  auto segments = segment_files(dir / "log");
  ASSERT_GE(segments.size(), 3u);
  std::uint64_t first_lost = little_endian(read_all(segments.back()), 24, 8);
  std::filesystem::remove(segments.back());
  for (recovery_mode mode : strict_modes) {
    auto e = thrown([&] { journal::open(dir / "log", in_mode(mode)); });
    ASSERT_TRUE(e) << "mode " << static_cast<int>(mode);
    EXPECT_EQ(e->code().value(), EILSEQ);
    EXPECT_NE(error_text(e).find("segment " + segments.back().filename().string() +
                                 " is missing: this segment was sealed once it existed, and the "
                                 "records from lsn " +
                                 std::to_string(first_lost) + " on went there"),
              std::string::npos)
        << e->what();
  }
  EXPECT_EQ(salvage_and_write_on(dir / "log", 100), first_lost - 1);
}

// A torn tail makes the journal go on in a fresh segment: the segment it
// leaves is sealed too, or deleting the fresh one would pass for that torn
// tail.
TEST_F(journal_damage, a_segment_left_at_open_is_sealed_too) {
  make_journal(dir.path(), 10);
  auto first = segment_files(dir.path()).front();
  damage(first, 3000, 8, 'x');  // past the records: a torn tail
  {
    auto log = journal::open(dir.path(), small);
    EXPECT_EQ(segment_files(dir.path()).size(), 2u);
    write_records(log, 11, 12);
  }
  std::filesystem::remove(segment_files(dir.path()).back());
  auto e = thrown([&] { journal::open(dir.path(), small); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EILSEQ);
  EXPECT_NE(error_text(e).find("is missing"), std::string::npos) << e->what();
}

// --- batches ---------------------------------------------------------------

// `count` records of `size` bytes each, the text of record i pattern(size, seed + i).
std::vector<std::string> batch_texts(std::size_t count, std::size_t size, std::uint64_t seed) {
  std::vector<std::string> texts;
  for (std::size_t i = 0; i < count; ++i) texts.push_back(pattern(size, seed + i));
  return texts;
}

std::uint64_t append_batch(journal& log, const std::vector<std::string>& texts) {
  std::vector<std::span<const std::byte>> spans;
  for (const std::string& text : texts) spans.push_back(bytes_of(text));
  return log.append(std::span<const std::span<const std::byte>>(spans));
}

TEST_F(journal_batch, a_batch_that_does_not_fit_goes_whole_into_the_next_segment) {
  auto log = journal::open(dir.path(), small);
  log.write(bytes_of(pattern(3000, 1)));  // 3,088 bytes used: 984 left before the seal's room
  std::uint64_t last = append_batch(log, batch_texts(3, 400, 10));  // 1,272: two would fit
  log.commit(last);
  log.close();
  auto segments = segment_files(dir.path());
  ASSERT_EQ(segments.size(), 2u);
  EXPECT_EQ(little_endian(read_all(segments[1]), 24, 8), 2u);  // the batch's first lsn
  auto again = journal::open(dir.path(), small);
  auto records = read_records(again);
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(records[3].data, pattern(400, 12));
}

TEST_F(journal_batch, a_batch_larger_than_a_segment_gets_a_segment_of_its_own) {
  auto texts = batch_texts(3, 3000, 20);
  {
    auto log = journal::open(dir.path(), small);
    log.write(bytes_of("before"));
    log.commit(append_batch(log, texts));
    log.write(bytes_of("after"));
  }
  auto segments = segment_files(dir.path());
  ASSERT_EQ(segments.size(), 2u);                // "after" fits behind the batch
  EXPECT_EQ(size_on_disk(segments[1]), 12288u);  // 64 + 3 x 3024 + a seal, to the page end
  auto log = journal::open(dir.path(), small);
  auto records = read_records(log);
  ASSERT_EQ(records.size(), 5u);
  EXPECT_EQ(records[2].data, texts[1]);
  EXPECT_EQ(records[4].data, "after");
}

TEST_F(journal_batch, a_batch_cut_inside_is_cut_whole) {
  auto texts = batch_texts(5, 100, 30);
  {
    auto log = journal::open(dir.path(), small);
    write_records(log, 1, 2);
    log.commit(append_batch(log, texts));  // lsns 3 to 7
  }
  auto segment = segment_files(dir.path()).front();
  std::string bytes = read_all(segment);
  auto fourth = bytes.find(texts[3]);
  ASSERT_NE(fourth, std::string::npos);
  damage(segment, fourth + 10, 1, '\x55');  // lsn 6, the batch's fourth record
  {
    auto log = journal::open(dir.path(), small);
    EXPECT_EQ(read_records(log), expected_records(1, 2));  // none of the batch
    EXPECT_EQ(log.next_lsn(), 3u);
    write_records(log, 3, 4);
  }
  auto log = journal::open(dir.path(), small);
  EXPECT_EQ(read_records(log), expected_records(1, 4));
}

TEST_F(journal_batch, absolute_consistency_refuses_a_batch_cut_inside) {
  auto texts = batch_texts(3, 100, 40);
  {
    auto log = journal::open(dir.path(), small);
    log.commit(append_batch(log, texts));
  }
  auto segment = segment_files(dir.path()).front();
  auto third = read_all(segment).find(texts[2]);
  damage(segment, third, 1, '\x55');
  auto e = thrown([&] { journal::open(dir.path(), in_mode(recovery_mode::absolute_consistency)); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EILSEQ);
  EXPECT_NE(error_text(e).find("record 1 is torn or corrupt"), std::string::npos) << e->what();
}

// --- segments made by hand ------------------------------------------------

std::string little_endian_bytes(std::uint64_t value, std::size_t n) {
  std::string bytes(n, '\0');
  for (std::size_t i = 0; i < n; ++i) bytes[i] = static_cast<char>(value >> (8 * i));
  return bytes;
}

// A segment file as docs/journal-format.md describes it, made without
// sluice: format `version` (1; 2 or 3 with `salt` for a reused one; 3 with
// its size), its header, then `texts` as records from lsn `first` on,
// then zeros to `size`.
std::string handmade_segment(std::uint32_t version, std::uint64_t number, std::uint64_t first,
                             const std::vector<std::string>& texts, std::uint32_t salt = 0,
                             std::size_t size = 4096) {
  std::string header = "SLUICEJL" + little_endian_bytes(version, 4) + little_endian_bytes(64, 4) +
                       little_endian_bytes(number, 8) + little_endian_bytes(first, 8) +
                       std::string(32, '\0');
  if (salt) {
    header.replace(36, 4, little_endian_bytes(1, 4));  // reused
    header.replace(40, 4, little_endian_bytes(salt, 4));
  }
  if (version >= 3) header.replace(44, 8, little_endian_bytes(size, 8));
  std::string covered =
      version >= 2 ? header.substr(0, 32) + header.substr(36) : header.substr(0, 32);
  header.replace(32, 4, little_endian_bytes(reference_crc32c(covered), 4));
  std::string bytes = header;
  std::uint64_t lsn = first;
  for (const std::string& text : texts) {
    std::string rest = little_endian_bytes(lsn, 8) + little_endian_bytes(lsn, 8) + text;
    std::string length = little_endian_bytes(text.size(), 4);
    std::uint32_t checksum = reference_crc32c(length + rest) ^ salt;
    bytes += length + little_endian_bytes(checksum, 4) + rest;
    ++lsn;
  }
  bytes.resize(size, '\0');
  return bytes;
}

// payload(first) to payload(last).
std::vector<std::string> payloads(std::uint64_t first, std::uint64_t last) {
  std::vector<std::string> texts;
  for (std::uint64_t i = first; i <= last; ++i) texts.push_back(payload(i));
  return texts;
}

// A segment sluice would never leave, records within 24 bytes of its end
// (no room for its seal), made by hand or by damage that kept every
// checksum: the journal goes on in a fresh segment instead of writing past
// its end.
TEST_F(journal_damage, a_segment_with_no_room_for_its_seal_is_not_continued) {
  std::vector<std::string> texts = {pattern(3000, 1), pattern(4096 - 64 - 24 - 3024 - 10, 2)};
  write_all(dir / "0000000000000001.journal", handmade_segment(3, 1, 1, texts));
  {
    auto log = journal::open(dir.path(), small);
    write_records(log, 3, 4);
  }
  EXPECT_EQ(segment_files(dir.path()).size(), 2u);
  auto log = journal::open(dir.path(), small);
  auto records = read_records(log);
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(records[1].data, texts[1]);
  EXPECT_EQ(records[3], (read_record{4, payload(4)}));
}

// Salvage gives a segment its size back only once every header has been
// checked and only if it keeps the segment: an open that fails changes
// nothing, and a read-only one never does.
TEST_F(journal_damage, salvage_restores_a_size_only_after_every_check_and_never_read_only) {
  make_journal(dir.path(), 100);
  auto segments = segment_files(dir.path());
  ASSERT_GE(segments.size(), 3u);
  write_all(segments.front(), read_all(segments.front()) + "added");
  std::string newest = read_all(segments.back());
  damage(segments.back(), 0, 1, 'X');  // a wrong magic: the open fails
  auto e = thrown([&] { journal::open(dir.path(), in_mode(recovery_mode::salvage)); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EINVAL);
  EXPECT_EQ(size_on_disk(segments.front()), 4096u + 5);

  write_all(segments.back(), newest);
  journal_options read_only = in_mode(recovery_mode::salvage);
  read_only.read_only = true;
  {
    auto log = journal::open(dir.path(), read_only);
    EXPECT_EQ(read_records(log), expected_records(1, 100));
  }
  EXPECT_EQ(size_on_disk(segments.front()), 4096u + 5);
  {
    auto log = journal::open(dir.path(), in_mode(recovery_mode::salvage));
    EXPECT_EQ(read_records(log), expected_records(1, 100));
  }
  EXPECT_EQ(size_on_disk(segments.front()), 4096u);
  auto log = journal::open(dir.path(), small);
  EXPECT_EQ(read_records(log), expected_records(1, 100));
}

// --- the older formats ------------------------------------------------------

TEST_F(journal_legacy, a_journal_of_versions_1_and_2_is_read_and_goes_on_in_version_3) {
  write_all(dir / "0000000000000005.journal", handmade_segment(1, 5, 1, payloads(1, 10)));
  write_all(dir / "0000000000000006.journal", handmade_segment(2, 6, 11, payloads(11, 15), 0x5EED));
  {
    auto log = journal::open(dir.path(), small);
    EXPECT_EQ(read_records(log), expected_records(1, 15));
    write_records(log, 16, 20);
  }
  auto segments = segment_files(dir.path());
  ASSERT_EQ(segments.size(), 3u);
  std::string newest = read_all(segments.back());
  EXPECT_EQ(little_endian(newest, 8, 4), 3u);    // never written into an older format
  EXPECT_EQ(little_endian(newest, 24, 8), 16u);  // the first lsn written since
  auto log = journal::open(dir.path(), small);
  EXPECT_EQ(read_records(log), expected_records(1, 20));
}

TEST_F(journal_legacy, a_version_1_segment_left_for_a_new_one_is_sealed_where_it_has_room) {
  write_all(dir / "0000000000000001.journal", handmade_segment(1, 1, 1, payloads(1, 10)));
  { journal::open(dir.path(), small).close(); }  // goes on in segment 2
  std::filesystem::remove(segment_files(dir.path()).back());
  auto e = thrown([&] { journal::open(dir.path(), small); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EILSEQ);
  EXPECT_NE(error_text(e).find("is missing"), std::string::npos) << e->what();
}

}  // namespace
