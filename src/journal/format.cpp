#include "journal/format.hpp"

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>

#include "journal/crc32c.hpp"
#include "journal/read_window.hpp"

namespace sluice::detail {
namespace {

constexpr char magic[8] = {'S', 'L', 'U', 'I', 'C', 'E', 'J', 'L'};
constexpr std::string_view segment_suffix = ".journal";

void put32(std::byte* out, std::uint32_t value) noexcept {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<std::byte>(value >> (8 * i));
}
void put64(std::byte* out, std::uint64_t value) noexcept {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<std::byte>(value >> (8 * i));
}
std::uint32_t get32(const std::byte* in) noexcept {
  std::uint32_t value = 0;
  for (int i = 3; i >= 0; --i) value = (value << 8) | std::to_integer<std::uint32_t>(in[i]);
  return value;
}
std::uint64_t get64(const std::byte* in) noexcept {
  std::uint64_t value = 0;
  for (int i = 7; i >= 0; --i) value = (value << 8) | std::to_integer<std::uint64_t>(in[i]);
  return value;
}

// The record checksum covers bytes [0, 4) and [8, 24) of the header, then the payload.
std::uint32_t record_checksum(const std::byte* header,
                              std::span<const std::byte> payload) noexcept {
  std::uint32_t state = crc32c_extend(crc32c_init, {header, 4});
  state = crc32c_extend(state, {header + 8, record_header_size - 8});
  return crc32c_finish(crc32c_extend(state, payload));
}

constexpr std::uint32_t reused_flag = 1;           // the one flag of a version 2 or 3 header
constexpr std::uint32_t seal_marker = 0xFFFFFFFF;  // a seal's length field

// Version 1: CRC32C of bytes [0, 32). Version 2: of [0, 32), then [36, 64),
// so that its flags are covered too.
std::uint32_t header_checksum(std::span<const std::byte> header) noexcept {
  if (get32(&header[8]) < 2) return crc32c(header.first(32));
  std::uint32_t state = crc32c_extend(crc32c_init, header.first(32));
  return crc32c_finish(crc32c_extend(state, header.subspan(36, segment_header_size - 36)));
}

bool is_wanted(const record_header& header, record_wanted wanted) noexcept {
  if (wanted.beyond) return header.lsn > wanted.lsn && header.durable_mark > wanted.marked_above;
  return header.lsn == wanted.lsn;
}

}  // namespace

std::string segment_name(std::uint64_t number) {
  char digits[17];
  auto [end, ec] = std::to_chars(digits, digits + 16, number, 16);
  std::string name(16 - static_cast<std::size_t>(end - digits), '0');
  name.append(digits, end);
  return name += segment_suffix;
}

parsed_entry parse_entry(std::string_view name) {
  if (name == lock_file_name) return {entry_kind::lock, 0};
  parsed_entry foreign{entry_kind::foreign, 0};
  if (name.size() < 16 + segment_suffix.size()) return foreign;
  std::uint64_t number = 0;
  auto [end, ec] = std::from_chars(name.data(), name.data() + 16, number, 16);
  if (ec != std::errc() || end != name.data() + 16) return foreign;
  for (char c : name.substr(0, 16))
    if (c >= 'A' && c <= 'F') return foreign;  // names are lower-case
  std::string_view rest = name.substr(16);
  if (rest == segment_suffix) return {entry_kind::segment, number};
  if (rest == ".journal.tmp") return {entry_kind::temporary, number};
  if (rest == ".journal.corrupt") return {entry_kind::corrupt, number};
  if (rest == ".journal.spare") return {entry_kind::spare, number};
  return foreign;
}

std::string spare_name(std::uint64_t number) { return segment_name(number) + ".spare"; }

std::vector<std::byte> encode_segment_header(const segment_header& header) {
  std::vector<std::byte> bytes(segment_header_size);
  std::memcpy(bytes.data(), magic, sizeof magic);
  put32(&bytes[8], journal_version);
  put32(&bytes[12], segment_header_size);
  put64(&bytes[16], header.number);
  put64(&bytes[24], header.first_lsn);
  if (header.reused) {
    put32(&bytes[36], reused_flag);
    put32(&bytes[40], header.salt);
  }
  put64(&bytes[44], header.size);
  put32(&bytes[32], header_checksum(bytes));
  return bytes;
}

std::optional<header_problem> check_segment_header(std::span<const std::byte> bytes,
                                                   std::uint64_t expected_number,
                                                   segment_header& out) {
  if (bytes.empty()) return header_problem{EINVAL, "empty file, not a journal segment"};
  if (bytes.size() < segment_header_size)
    return header_problem{EINVAL, "shorter than a segment header"};
  if (std::memcmp(bytes.data(), magic, sizeof magic) != 0)
    return header_problem{EINVAL, "wrong magic, not a journal segment"};
  // The version first: a newer format may lay out (and checksum) its header differently.
  std::uint32_t version = get32(&bytes[8]);
  if (version > journal_version)
    return header_problem{EPROTONOSUPPORT, "format version " + std::to_string(version) +
                                               " written by a newer sluice"};
  if (get32(&bytes[32]) != header_checksum(bytes.first(segment_header_size)))
    return header_problem{EINVAL, "segment header checksum mismatch"};
  std::uint32_t flags = version >= 2 ? get32(&bytes[36]) : 0;
  if ((flags & ~reused_flag) != 0)
    return header_problem{EPROTONOSUPPORT,
                          "segment flags " + std::to_string(flags) + " written by a newer sluice"};
  if (version == 0 || get32(&bytes[12]) != segment_header_size)
    return header_problem{EINVAL, "bad format version or header size"};
  out.number = get64(&bytes[16]);
  out.first_lsn = get64(&bytes[24]);
  out.size = version >= 3 ? get64(&bytes[44]) : 0;
  out.version = version;
  out.reused = (flags & reused_flag) != 0;
  out.salt = version >= 2 ? get32(&bytes[40]) : 0;
  if (version >= 3 && out.size < min_segment_size)
    return header_problem{EINVAL, "segment size " + std::to_string(out.size) +
                                      " in the header, below the 4096 bytes of any segment"};
  if (out.reused != (out.salt != 0))
    return header_problem{EINVAL, "a salt without the reused flag, or the flag without a salt"};
  if (out.number != expected_number)
    return header_problem{
        EINVAL, "segment number " + std::to_string(out.number) + " does not match the file name"};
  if (out.first_lsn == 0) return header_problem{EINVAL, "first lsn 0"};
  return std::nullopt;
}

record_header decode_record_header(const std::byte* bytes) noexcept {
  std::uint32_t length = get32(bytes);
  return {length & ~continued_flag, get32(bytes + 4), get64(bytes + 8), get64(bytes + 16),
          (length & continued_flag) != 0};
}

void encode_record(std::vector<std::byte>& out, std::uint64_t lsn, std::uint64_t durable_mark,
                   std::span<const std::byte> payload, bool continued) {
  std::size_t at = out.size();
  out.resize(at + static_cast<std::size_t>(framed_size(payload.size())));
  std::byte* header = out.data() + at;
  put32(header, static_cast<std::uint32_t>(payload.size()) | (continued ? continued_flag : 0));
  put64(header + 8, lsn);
  put64(header + 16, durable_mark);
  if (!payload.empty()) std::memcpy(header + record_header_size, payload.data(), payload.size());
  put32(header + 4, record_checksum(header, payload));
}

record_read read_record(read_window& window, std::uint64_t offset, record_wanted wanted) {
  auto header_bytes = window.bytes(offset, record_header_size);
  if (header_bytes.size() < record_header_size) return {record_status::missing, {}, {}};
  record_read read{record_status::rejected, decode_record_header(header_bytes.data()), {}};
  if (!is_wanted(read.header, wanted) || read.header.length > max_record_payload ||
      offset + read.size() > window.limit())
    return read;
  auto record = window.bytes(offset, static_cast<std::size_t>(read.size()));
  if (record.size() < read.size()) {
    read.status = record_status::truncated;
    return read;
  }
  read.payload = record.subspan(record_header_size);
  bool matches =
      (get32(record.data() + 4) ^ wanted.salt) == record_checksum(record.data(), read.payload);
  read.status = matches ? record_status::valid : record_status::bad_checksum;
  return read;
}

std::uint32_t new_segment_salt(std::uint64_t number, std::uint64_t first_lsn) noexcept {
  auto now =
      static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
  std::uint64_t mixed = number * 0x9E3779B97F4A7C15u ^ first_lsn * 0xC2B2AE3D27D4EB4Fu ^ now;
  mixed = (mixed ^ (mixed >> 30)) * 0xBF58476D1CE4E5B9u;  // splitmix64's finalizer
  mixed = (mixed ^ (mixed >> 27)) * 0x94D049BB133111EBu;
  auto salt = static_cast<std::uint32_t>(mixed ^ (mixed >> 31) ^ (mixed >> 32));
  return salt != 0 ? salt : 1;
}

void salt_records(std::span<std::byte> records, std::uint32_t salt) noexcept {
  for (std::size_t at = 0; at + record_header_size <= records.size();) {
    std::byte* header = records.data() + at;
    put32(header + 4, get32(header + 4) ^ salt);
    at += static_cast<std::size_t>(framed_size(decode_record_header(header).length));
  }
}

std::uint64_t first_batch_size(std::span<const std::byte> records) noexcept {
  std::uint64_t size = 0;
  while (size + record_header_size <= records.size()) {
    record_header header = decode_record_header(records.data() + size);
    size += framed_size(header.length);
    if (!header.continued) break;
  }
  return size;
}

std::vector<std::byte> encode_seal(std::uint64_t next_lsn, std::uint64_t next_number,
                                   std::uint32_t salt) {
  std::vector<std::byte> bytes(seal_size);
  put32(bytes.data(), seal_marker);
  put64(bytes.data() + 8, next_lsn);
  put64(bytes.data() + 16, next_number);
  put32(bytes.data() + 4, record_checksum(bytes.data(), {}) ^ salt);
  return bytes;
}

std::optional<std::uint64_t> decode_seal(std::span<const std::byte> bytes, std::uint64_t next_lsn,
                                         std::uint32_t salt) noexcept {
  if (bytes.size() < seal_size || get32(bytes.data()) != seal_marker ||
      get64(bytes.data() + 8) != next_lsn ||
      (get32(bytes.data() + 4) ^ salt) != record_checksum(bytes.data(), {}))
    return std::nullopt;
  return get64(bytes.data() + 16);
}

bool all_zero(std::span<const std::byte> bytes) noexcept {
  for (std::byte b : bytes)
    if (b != std::byte{0}) return false;
  return true;
}

}  // namespace sluice::detail
