// The journal's bytes on disk: segment names, the segment header and record
// framing, exactly as docs/journal-format.md describes them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sluice::detail {

// The format version every new segment is written with, and the newest
// read. Version 3 records each segment's size in its header, marks the
// records of a batch (record_header::continued) and seals a segment once
// its successor exists (encode_seal); versions 1 and 2 (a segment made from
// a spare) are still read, and never written into again.
inline constexpr std::uint32_t journal_version = 3;
inline constexpr std::size_t segment_header_size = 64;
inline constexpr std::size_t record_header_size = 24;
inline constexpr std::uint64_t max_record_payload = std::uint64_t{64} << 20;
inline constexpr std::uint64_t min_segment_size = 4096;

// The page the journal pads and rounds to: a batch in a segment whose pages
// are not cached is padded with zeros to its end, and so is a record that
// gets a segment of its own.
inline constexpr std::uint64_t page_size = 4096;

// The first page boundary at or after `offset`.
constexpr std::uint64_t page_end(std::uint64_t offset) {
  return (offset + page_size - 1) / page_size * page_size;
}

// "0000000000000002.journal" for segment 2.
std::string segment_name(std::uint64_t number);

// The file of a journal directory that its lock is taken on (journal_lock.hpp).
inline constexpr std::string_view lock_file_name = "journal.lock";

// What a directory entry of a journal is.
enum class entry_kind { segment, temporary, corrupt, spare, lock, foreign };
struct parsed_entry {
  entry_kind kind;
  std::uint64_t number;  // for all but lock and foreign
};

// "0000000000000002.journal.spare": segment 2, kept by truncate_before() to
// be reused (journal_options::reuse_segments).
std::string spare_name(std::uint64_t number);
parsed_entry parse_entry(std::string_view name);

struct segment_header {
  std::uint64_t number;
  std::uint64_t first_lsn;
  // Bytes the segment was made with, its file size for good: every segment
  // is sized before its header is written. Version 3; 0 in older versions,
  // which do not say.
  std::uint64_t size = 0;
  std::uint32_t version = journal_version;
  // Made from a spare: the bytes after its records may hold records of the
  // file's earlier lives (flag bit 0, from version 2 on).
  bool reused = false;
  // Of a reused segment: XORed into the checksum of each of its records, so
  // that the records of the file's earlier lives (another salt, or none)
  // never validate. Non-zero there, 0 elsewhere.
  std::uint32_t salt = 0;
};

// A salt for a new life of a segment file: non-zero, and different for each
// segment number, first lsn and moment.
std::uint32_t new_segment_salt(std::uint64_t number, std::uint64_t first_lsn) noexcept;

// The 64 header bytes of a segment.
std::vector<std::byte> encode_segment_header(const segment_header& header);

// Why a segment header was refused, or nothing if it is good.
struct header_problem {
  int error;            // EINVAL or EPROTONOSUPPORT
  std::string message;  // "wrong magic", ...
};
std::optional<header_problem> check_segment_header(std::span<const std::byte> bytes,
                                                   std::uint64_t expected_number,
                                                   segment_header& out);

struct record_header {
  std::uint32_t length;  // of the payload
  std::uint32_t checksum;
  std::uint64_t lsn;
  std::uint64_t durable_mark;  // records below this lsn were durable at write time
  // The next record belongs to the same batch (journal::append of several
  // records): the top bit of the length field on disk. A batch is whole
  // when its last record, the first without the flag, is.
  bool continued = false;
};

// The top bit of a record's length field: record_header::continued.
inline constexpr std::uint32_t continued_flag = std::uint32_t{1} << 31;

record_header decode_record_header(const std::byte* bytes) noexcept;

// Bytes of a record with a payload of `payload_size` bytes, framed.
constexpr std::uint64_t framed_size(std::uint64_t payload_size) noexcept {
  return record_header_size + payload_size;
}

// XORs `salt` into the checksum of every framed record of `records` (whole
// records, back to back): what a segment with that salt holds. O(records).
void salt_records(std::span<std::byte> records, std::uint32_t salt) noexcept;

// Appends the framed record (header, then payload: framed_size() bytes) to
// `out`, marked `continued` if the next record belongs to the same batch.
// Allocates, and so can throw bad_alloc, only when `out` lacks the
// capacity for it.
void encode_record(std::vector<std::byte>& out, std::uint64_t lsn, std::uint64_t durable_mark,
                   std::span<const std::byte> payload, bool continued = false);

// The bytes of the first batch of `records` (whole records, back to back):
// up to and including its first record not marked continued.
std::uint64_t first_batch_size(std::span<const std::byte> records) noexcept;

// A seal: what a segment holds right after its last record once its
// successor exists (docs/journal-format.md), so that a missing newest
// segment shows. A record header in form: the length field all ones (never
// a valid record), the lsn the successor starts with, the successor's
// segment number in place of the durable mark, and a checksum like a
// record's, with the segment's salt.
inline constexpr std::size_t seal_size = record_header_size;
std::vector<std::byte> encode_seal(std::uint64_t next_lsn, std::uint64_t next_number,
                                   std::uint32_t salt);
// The successor's segment number if `bytes` (seal_size of them) are the
// seal of a segment whose records end just before, with lsn `next_lsn`.
std::optional<std::uint64_t> decode_seal(std::span<const std::byte> bytes, std::uint64_t next_lsn,
                                         std::uint32_t salt) noexcept;

// Which record a reader looks for at an offset: the one with lsn `lsn`
// (a scan or a cursor), or with `beyond` any record whose lsn is above `lsn`
// and whose durable mark is above `marked_above` (recovery's look past the
// cut of a torn tail).
struct record_wanted {
  std::uint64_t lsn;
  bool beyond = false;
  std::uint64_t marked_above = 0;
  std::uint32_t salt = 0;  // the segment's (segment_header::salt)
};

// What read_record found.
enum class record_status {
  valid,
  missing,    // fewer than record_header_size bytes left before the window's limit
  rejected,   // not the record wanted, a length over max_record_payload or past the limit
  truncated,  // the file ended before the record did (it shrank while being read)
  bad_checksum,
};

struct record_read {
  record_status status;
  record_header header;                // as decoded; zeros when missing
  std::span<const std::byte> payload;  // when valid: until the window's next read
  std::uint64_t size() const noexcept { return framed_size(header.length); }
};

class read_window;

// The one rule of what a valid record is (docs/journal-format.md): reads the
// record at `offset` of the segment behind `window` and checks that its
// header is the one `wanted`, its length is at most max_record_payload and
// fits before the window's limit, and its checksum over header and payload
// matches. The payload is read only once the header passed. Cost: at most
// two window reads (a pread each when outside the window's buffer) and a
// CRC32C of the record. Throws std::system_error only if a read fails.
record_read read_record(read_window& window, std::uint64_t offset, record_wanted wanted);

// True if all of `bytes` are zero.
bool all_zero(std::span<const std::byte> bytes) noexcept;

}  // namespace sluice::detail
