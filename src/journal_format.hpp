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

// The newest format version read and written: 2 for a segment made from a
// spare (segment_header::reused), 1 otherwise, so that a journal that never
// reuses a segment stays readable by a sluice that knows only version 1.
inline constexpr std::uint32_t journal_version = 2;
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

// What a directory entry of a journal is.
enum class entry_kind { segment, temporary, corrupt, spare, foreign };
struct parsed_entry {
  entry_kind kind;
  std::uint64_t number;  // for all but foreign
};

// "0000000000000002.journal.spare": segment 2, kept by truncate_before() to
// be reused (journal_options::reuse_segments).
std::string spare_name(std::uint64_t number);
parsed_entry parse_entry(std::string_view name);

struct segment_header {
  std::uint64_t number;
  std::uint64_t first_lsn;
  // Made from a spare: the bytes after its records may hold records of the
  // file's earlier lives. Written as version 2.
  bool reused = false;
  // Version 2: XORed into the checksum of each of its records, so that the
  // records of the file's earlier lives (another salt, or none) never
  // validate. Non-zero; 0 in version 1.
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
  std::uint32_t length;
  std::uint32_t checksum;
  std::uint64_t lsn;
  std::uint64_t durable_mark;  // records below this lsn were durable at write time
};

record_header decode_record_header(const std::byte* bytes) noexcept;

// Bytes of a record with a payload of `payload_size` bytes, framed.
constexpr std::uint64_t framed_size(std::uint64_t payload_size) noexcept {
  return record_header_size + payload_size;
}

// XORs `salt` into the checksum of every framed record of `records` (whole
// records, back to back): what a segment with that salt holds. O(records).
void salt_records(std::span<std::byte> records, std::uint32_t salt) noexcept;

// Appends the framed record (header, then payload: framed_size() bytes) to
// `out`. Allocates, and so can throw bad_alloc,
// only when `out` lacks the capacity for it.
void encode_record(std::vector<std::byte>& out, std::uint64_t lsn, std::uint64_t durable_mark,
                   std::span<const std::byte> payload);

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
