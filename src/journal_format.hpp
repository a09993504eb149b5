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

inline constexpr std::uint32_t journal_version = 1;
inline constexpr std::size_t segment_header_size = 64;
inline constexpr std::size_t record_header_size = 24;
inline constexpr std::uint64_t max_record_payload = std::uint64_t{64} << 20;
inline constexpr std::uint64_t min_segment_size = 4096;

// "0000000000000002.journal" for segment 2.
std::string segment_name(std::uint64_t number);

// What a directory entry of a journal is.
enum class entry_kind { segment, temporary, corrupt, foreign };
struct parsed_entry {
  entry_kind kind;
  std::uint64_t number;  // for segment, temporary and corrupt
};
parsed_entry parse_entry(std::string_view name);

struct segment_header {
  std::uint64_t number;
  std::uint64_t first_lsn;
};

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

// Appends the framed record (header, then payload) to `out`.
void encode_record(std::vector<std::byte>& out, std::uint64_t lsn, std::uint64_t durable_mark,
                   std::span<const std::byte> payload);

// True if `header_bytes` (record_header_size) and `payload` carry a matching
// checksum.
bool record_checksum_matches(const std::byte* header_bytes,
                             std::span<const std::byte> payload) noexcept;

// True if all of `bytes` are zero.
bool all_zero(std::span<const std::byte> bytes) noexcept;

}  // namespace sluice::detail
