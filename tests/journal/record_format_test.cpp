// The journal's record framing (journal/format.hpp), called directly: a
// record encoded and its header decoded, the continued bit of a batch, the
// checksums (CRC32C against a bit-by-bit reference, a segment's salt), a
// seal, and read_record's verdict on every kind of damaged or unwanted
// record. docs/journal-format.md specifies the bytes; journal_test.cpp
// checks them in the files a journal writes.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "journal/crc32c.hpp"
#include "journal/format.hpp"
#include "journal/read_window.hpp"
#include "support/journal_test_support.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::detail::continued_flag;
using sluice::detail::crc32c;
using sluice::detail::crc32c_extend;
using sluice::detail::crc32c_finish;
using sluice::detail::crc32c_init;
using sluice::detail::decode_record_header;
using sluice::detail::decode_seal;
using sluice::detail::encode_record;
using sluice::detail::encode_seal;
using sluice::detail::first_batch_size;
using sluice::detail::framed_size;
using sluice::detail::max_record_payload;
using sluice::detail::read_window;
using sluice::detail::record_header;
using sluice::detail::record_header_size;
using sluice::detail::record_read;
using sluice::detail::record_status;
using sluice::detail::record_wanted;
using sluice::detail::salt_records;
using sluice::detail::seal_size;

// The framed record, as encode_record appends it to an empty buffer.
std::string framed(std::uint64_t lsn, std::uint64_t mark, std::string_view payload,
                   bool continued = false) {
  std::vector<std::byte> out;
  encode_record(out, lsn, mark, bytes_of(payload), continued);
  return text_of(out);
}

// Both ways of computing it: the one the CPU gets (SSE4.2 here, where
// present) and the tables alone.
using crc32c_way = std::uint32_t (*)(std::uint32_t, std::span<const std::byte>) noexcept;

class journal_crc32c : public ::testing::TestWithParam<crc32c_way> {
 protected:
  std::uint32_t of(std::string_view text) const {
    return crc32c_finish(GetParam()(crc32c_init, bytes_of(text)));
  }
};

TEST_P(journal_crc32c, matches_the_published_check_values) {
  EXPECT_EQ(of("123456789"), 0xE3069283u);
  EXPECT_EQ(of(std::string(32, '\0')), 0x8A9136AAu);  // RFC 3720, B.4
  EXPECT_EQ(of(std::string(32, '\xFF')), 0x62A8AB43u);
  std::string ascending;
  for (int i = 0; i < 32; ++i) ascending.push_back(static_cast<char>(i));
  EXPECT_EQ(of(ascending), 0x46DD794Eu);
}

TEST_P(journal_crc32c, matches_a_bit_by_bit_reference_at_every_length_and_alignment) {
  std::string data = pattern(300, 5);
  for (std::size_t start = 0; start < 8; ++start)
    for (std::size_t length = 0; start + length <= data.size(); length += 7) {
      std::string_view piece(data.data() + start, length);
      EXPECT_EQ(of(piece), reference_crc32c(piece)) << start << "+" << length;
    }
  // Extended in two pieces, the same as in one.
  std::uint32_t state = GetParam()(crc32c_init, bytes_of(std::string_view(data).substr(0, 13)));
  state = GetParam()(state, bytes_of(std::string_view(data).substr(13)));
  EXPECT_EQ(crc32c_finish(state), reference_crc32c(data));
}

TEST(journal_crc32c_one_call, is_the_extension_from_init_finished) {
  std::string data = pattern(100, 3);
  EXPECT_EQ(crc32c(bytes_of(data)), crc32c_finish(crc32c_extend(crc32c_init, bytes_of(data))));
}

INSTANTIATE_TEST_SUITE_P(ways, journal_crc32c,
                         ::testing::Values(&sluice::detail::crc32c_extend,
                                           &sluice::detail::crc32c_extend_by_table),
                         [](const auto& info) { return info.index == 0 ? "cpu" : "table"; });

TEST(journal_record, is_encoded_as_specified_and_decodes_back) {
  std::string record = framed(0x0102030405060708u, 0x1112131415161718u, "payload");
  ASSERT_EQ(record.size(), framed_size(7));
  EXPECT_EQ(little_endian(record, 0, 4), 7u);
  EXPECT_EQ(little_endian(record, 8, 8), 0x0102030405060708u);
  EXPECT_EQ(little_endian(record, 16, 8), 0x1112131415161718u);
  EXPECT_EQ(little_endian(record, 4, 4), reference_crc32c(record.substr(0, 4) + record.substr(8)));
  EXPECT_EQ(record.substr(24), "payload");
  record_header header = decode_record_header(bytes_of(record).data());
  EXPECT_EQ(header.length, 7u);
  EXPECT_EQ(header.checksum, little_endian(record, 4, 4));
  EXPECT_EQ(header.lsn, 0x0102030405060708u);
  EXPECT_EQ(header.durable_mark, 0x1112131415161718u);
  EXPECT_FALSE(header.continued);
}

TEST(journal_record, the_continued_bit_is_the_top_bit_of_the_length_and_is_checksummed) {
  std::string plain = framed(5, 1, "abc");
  std::string continued = framed(5, 1, "abc", true);
  EXPECT_EQ(little_endian(continued, 0, 4), 3u | continued_flag);
  EXPECT_EQ(little_endian(continued, 4, 4),
            reference_crc32c(continued.substr(0, 4) + continued.substr(8)));
  EXPECT_NE(little_endian(continued, 4, 4), little_endian(plain, 4, 4));
  record_header header = decode_record_header(bytes_of(continued).data());
  EXPECT_EQ(header.length, 3u);  // without the bit
  EXPECT_TRUE(header.continued);
  EXPECT_EQ(framed_size(header.length), continued.size());
}

TEST(journal_record, records_append_back_to_back_and_a_batch_ends_at_its_first_plain_record) {
  std::vector<std::byte> out;
  encode_record(out, 1, 1, bytes_of("a"), true);
  encode_record(out, 2, 1, bytes_of(""), true);
  encode_record(out, 3, 1, bytes_of("ccc"));
  encode_record(out, 4, 1, bytes_of("dddd"));
  std::string all = text_of(out);
  ASSERT_EQ(all.size(), framed_size(1) + framed_size(0) + framed_size(3) + framed_size(4));
  EXPECT_EQ(all.substr(0, framed_size(1)), framed(1, 1, "a", true));
  EXPECT_EQ(first_batch_size(out), framed_size(1) + framed_size(0) + framed_size(3));
  std::span<const std::byte> rest(out);
  EXPECT_EQ(first_batch_size(rest.subspan(first_batch_size(out))), framed_size(4));
  EXPECT_EQ(first_batch_size(rest.first(10)), 0u);  // not even a header
}

TEST(journal_seal, decodes_only_with_the_successors_lsn_and_the_segments_salt) {
  auto seal = encode_seal(42, 7, 0xABCD);
  ASSERT_EQ(seal.size(), seal_size);
  EXPECT_EQ(decode_seal(seal, 42, 0xABCD), 7u);
  EXPECT_FALSE(decode_seal(seal, 41, 0xABCD));
  EXPECT_FALSE(decode_seal(seal, 42, 0));
  auto damaged = seal;
  damaged[17] ^= std::byte{1};  // the successor's number
  EXPECT_FALSE(decode_seal(damaged, 42, 0xABCD));
  EXPECT_FALSE(decode_seal(std::span(seal).first(seal_size - 1), 42, 0xABCD));
  // A seal is never a record: its length field is all ones.
  EXPECT_GT(decode_record_header(seal.data()).length, max_record_payload);
}

// Records in a file of the test's directory, read back with read_record
// through a read_window.
class read_record_test : public dir_test {
 protected:
  // Writes `bytes` as the whole file, and opens it for reading.
  void put(const std::string& bytes) {
    write_all(dir / "segment", bytes);
    file_ = sluice::file::open(dir / "segment", {.mode = sluice::open_mode::read_only});
  }
  record_read read(std::uint64_t offset, record_wanted wanted, std::uint64_t limit) {
    window_.emplace(file_, limit);
    return sluice::detail::read_record(*window_, offset, wanted);
  }
  record_read read(std::uint64_t offset, record_wanted wanted) {
    return read(offset, wanted, file_.size());
  }

 private:
  sluice::file file_;
  std::optional<read_window> window_;
};

TEST_F(read_record_test, a_good_record_is_valid_with_its_payload) {
  put("pad" + framed(9, 3, "hello") + framed(10, 3, "world"));
  auto first = read(3, {.lsn = 9});
  EXPECT_EQ(first.status, record_status::valid);
  EXPECT_EQ(first.header.lsn, 9u);
  EXPECT_EQ(first.header.durable_mark, 3u);
  EXPECT_EQ(text_of(first.payload), "hello");
  EXPECT_EQ(first.size(), framed_size(5));
  EXPECT_EQ(read(3 + framed_size(5), {.lsn = 10}).status, record_status::valid);
}

TEST_F(read_record_test, a_record_not_the_one_wanted_is_rejected) {
  put(framed(9, 3, "hello"));
  EXPECT_EQ(read(0, {.lsn = 8}).status, record_status::rejected);
  // Beyond: any later lsn with a durable mark above the one given.
  EXPECT_EQ(read(0, {.lsn = 8, .beyond = true, .marked_above = 2}).status, record_status::valid);
  EXPECT_EQ(read(0, {.lsn = 8, .beyond = true, .marked_above = 3}).status, record_status::rejected);
  EXPECT_EQ(read(0, {.lsn = 9, .beyond = true}).status, record_status::rejected);
}

// A bit changed anywhere in a record never passes. Where the header still
// names the record wanted and a length that fits (the continued bit, the
// checksum, the durable mark, the payload), the checksum is what catches it.
TEST_F(read_record_test, every_damaged_byte_is_caught) {
  std::string good = framed(9, 3, "hello", true);
  for (std::size_t at = 0; at < good.size(); ++at)
    for (unsigned bit : {0x01u, 0x80u}) {
      std::string damaged = good;
      damaged[at] = static_cast<char>(static_cast<unsigned char>(damaged[at]) ^ bit);
      put(damaged);
      auto got = read(0, {.lsn = 9});
      EXPECT_NE(got.status, record_status::valid) << "byte " << at << " bit " << bit;
      bool continued_bit = at == 3 && bit == 0x80;
      bool lsn_or_length = at < 4 || (at >= 8 && at < 16);
      if (continued_bit || !lsn_or_length) {
        EXPECT_EQ(got.status, record_status::bad_checksum) << "byte " << at << " bit " << bit;
      }
    }
}

TEST_F(read_record_test, a_length_past_the_limit_or_the_largest_payload_is_rejected_unread) {
  std::string record = framed(9, 3, "hello");
  put(record);
  EXPECT_EQ(read(0, {.lsn = 9}, record.size() - 1).status, record_status::rejected);
  std::string huge = record;
  std::uint32_t length = static_cast<std::uint32_t>(max_record_payload) + 1;
  for (int i = 0; i < 4; ++i) huge[i] = static_cast<char>(length >> (8 * i));
  put(huge);
  EXPECT_EQ(read(0, {.lsn = 9}, std::uint64_t{1} << 40).status, record_status::rejected);
}

TEST_F(read_record_test, fewer_bytes_than_a_header_are_missing_and_a_short_file_truncated) {
  std::string record = framed(9, 3, "hello");
  put(record.substr(0, record_header_size - 1));
  EXPECT_EQ(read(0, {.lsn = 9}).status, record_status::missing);
  // The window allows the whole record, the file ends before it does.
  put(record.substr(0, record.size() - 1));
  EXPECT_EQ(read(0, {.lsn = 9}, record.size()).status, record_status::truncated);
}

TEST_F(read_record_test, a_salted_record_is_valid_only_with_its_segments_salt) {
  std::vector<std::byte> records;
  encode_record(records, 9, 3, bytes_of("hello"));
  encode_record(records, 10, 3, bytes_of("world"));
  salt_records(records, 0x5A5A1234);
  put(text_of(records));
  EXPECT_EQ(read(0, {.lsn = 9, .salt = 0x5A5A1234}).status, record_status::valid);
  EXPECT_EQ(read(framed_size(5), {.lsn = 10, .salt = 0x5A5A1234}).status, record_status::valid);
  EXPECT_EQ(read(0, {.lsn = 9}).status, record_status::bad_checksum);
  EXPECT_EQ(read(0, {.lsn = 9, .salt = 0x5A5A1235}).status, record_status::bad_checksum);
}

}  // namespace
