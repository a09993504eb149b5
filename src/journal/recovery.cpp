#include "journal/recovery.hpp"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "journal/format.hpp"
#include "journal/read_window.hpp"
#include "journal/segments.hpp"
#include "os/error_messages.hpp"
#include "os/path_text.hpp"
#include "os/sys.hpp"

namespace sluice::detail {
namespace {

[[noreturn]] void throw_corrupt(const std::filesystem::path& segment, std::uint64_t offset,
                                const std::string& reason) {
  throw std::system_error(EILSEQ, std::generic_category(),
                          describe("recover journal", path_text(segment), offset) + ": " + reason);
}

// The segment numbers in `dir`, sorted, and its spares' in `spares`;
// removes *.tmp leftovers through `changes`.
std::vector<std::uint64_t> segment_numbers(const journal_directory& dir,
                                           std::vector<std::uint64_t>& spares,
                                           const recovery_changes& changes) {
  std::vector<std::uint64_t> numbers;
  for (const std::string& name : dir.list()) {
    parsed_entry entry = parse_entry(name);
    if (entry.kind == entry_kind::foreign)
      throw std::system_error(EINVAL, std::generic_category(),
                              describe("open journal", path_text(dir.path())) +
                                  ": not a journal directory (it holds '" + name + "')");
    if (entry.kind == entry_kind::segment) numbers.push_back(entry.number);
    if (entry.kind == entry_kind::spare) spares.push_back(entry.number);
    if (entry.kind == entry_kind::temporary) changes.remove_leftover(name);
  }
  std::sort(numbers.begin(), numbers.end());
  return numbers;
}

struct scan_result {
  std::uint64_t end_offset;  // after the last valid record
  std::uint64_t next_lsn;    // one past it
};

// Follows the valid records of a segment, whose checksums carry `salt`,
// from its header on, and returns where the last whole batch ends: the
// valid records of a batch whose last record is not are cut with it.
scan_result scan_records(read_window& window, std::uint64_t lsn, std::uint32_t salt) {
  std::uint64_t offset = segment_header_size;
  scan_result whole{offset, lsn};
  for (;;) {
    record_read record = read_record(window, offset, {.lsn = lsn, .salt = salt});
    if (record.status != record_status::valid) break;
    offset += record.size();
    ++lsn;
    if (!record.header.continued) whole = {offset, lsn};
  }
  return whole;
}

// A segment open for reading through one window over all of it. Held by
// pointer and never moved: the window refers to the handle.
struct segment_reader {
  segment_reader(const journal_directory& dir, std::uint64_t number)
      : handle(open_segment(dir, segment_name(number), open_mode::read_only)),
        window(handle, handle.size()) {}
  file handle;
  read_window window;
};

// A segment whose header was checked and, if recovery reaches it, whose
// records were followed from the header's first lsn on.
struct checked_segment {
  std::filesystem::path path;
  segment_info info;
  std::uint32_t salt = 0;           // of its records' checksums
  std::uint32_t version = 0;        // of its format
  std::uint64_t made_size = 0;      // in its header (version 3), else 0
  bool resized = false;             // salvage: not the size it was made with
  std::optional<scan_result> scan;  // only if reached and read
  std::exception_ptr scan_failed;   // a failed read, reported once reached
};

// Throws EILSEQ if `segment`, read through `window`, is not the size its
// header says it was made with (`made`, version 3), unless salvaging; then
// marks it resized (recover_journal gives it back that size if it keeps
// it, and the journal does not go on in it) and reads nothing past `made`.
void check_size(checked_segment& segment, read_window& window, std::uint64_t made,
                recovery_mode mode) {
  std::uint64_t size = window.limit();
  if (made == 0 || size == made) return;
  if (mode != recovery_mode::salvage)
    throw_corrupt(
        segment.path, std::min(size, made),
        "the segment is " + std::to_string(size) + " bytes but was made " + std::to_string(made) +
            " bytes long: " + (size < made ? "it was cut short" : "bytes were added to it"));
  segment.resized = true;
  window.limit_to(made);
}

// Opens segment `number` of `dir` into `reader` (replacing what it held)
// and checks its header and its size. Throws std::system_error naming the
// segment (EINVAL, EPROTONOSUPPORT, EILSEQ for a size that changed) or the
// errno of a failed open, stat or read.
checked_segment open_checked_segment(const journal_directory& dir, std::uint64_t number,
                                     std::unique_ptr<segment_reader>& reader, recovery_mode mode) {
  checked_segment segment;
  segment.path = dir.path_of(segment_name(number));
  segment.info = {number, 0};
  reader.reset();  // the previous reader and its buffer go first
  reader = std::make_unique<segment_reader>(dir, number);
  segment_header header{};
  if (auto problem =
          check_segment_header(reader->window.bytes(0, segment_header_size), number, header))
    throw std::system_error(
        problem->error, std::generic_category(),
        describe("open journal segment", path_text(segment.path)) + ": " + problem->message);
  segment.info.first_lsn = header.first_lsn;
  segment.info.reused = header.reused;
  segment.salt = header.salt;
  segment.version = header.version;
  segment.made_size = header.size;
  check_size(segment, reader->window, header.size, mode);
  return segment;
}

using byte_ranges = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

// True if every range of `ranges` (read_window::data_ranges: the rest may
// only hold zeros) reads as zeros, 64 KiB at a time.
bool only_zeros_in(read_window& window, const byte_ranges& ranges) {
  constexpr std::uint64_t chunk = 64 * 1024;
  for (auto [begin, end] : ranges)
    for (std::uint64_t at = begin; at < end; at += chunk)
      if (!all_zero(window.bytes(at, static_cast<std::size_t>(std::min(chunk, end - at)))))
        return false;
  return true;
}

std::uint64_t load_le64(const std::byte* bytes) noexcept {
  std::uint64_t value;
  std::memcpy(&value, bytes, sizeof value);
  if constexpr (std::endian::native == std::endian::big) value = __builtin_bswap64(value);
  return value;
}

// What recovery looks for past a cut: a record whose lsn is above `lsn` and
// whose durable mark is above `marked_above`.
struct later_record {
  std::uint64_t lsn;
  std::uint64_t marked_above;
};

// A cheap test of the record header at `bytes`, found at `offset` of a
// segment whose first lsn is `first_lsn`: whether read_record() could find
// there a record of this segment that is `wanted`. Its lsn and durable mark
// must pass, and its lsn be no further from the segment's first than records
// of at least record_header_size bytes each allow; random bytes almost never
// pass.
bool may_be_wanted(const std::byte* bytes, std::uint64_t offset, later_record wanted,
                   std::uint64_t first_lsn) noexcept {
  std::uint64_t lsn = load_le64(bytes + 8);
  std::uint64_t mark = load_le64(bytes + 16);
  return lsn > wanted.lsn && mark > wanted.marked_above && lsn >= first_lsn &&
         lsn - first_lsn <= offset / record_header_size;
}

// A valid record `wanted` within `ranges` (outside them the segment reads as
// zeros, and a header of zeros is never one), at or after `from`; returns its
// lsn. Every offset is tried, as a torn write may shift records anywhere:
// may_be_wanted() first, read_record() on the few that pass. Cost: one read
// of the ranges (a pread per MiB) and a few instructions per byte.
std::optional<std::uint64_t> find_record_after(const checked_segment& segment, read_window& window,
                                               const byte_ranges& ranges, std::uint64_t from,
                                               later_record wanted) {
  std::uint64_t first_lsn = segment.info.first_lsn;
  constexpr std::size_t scan_chunk = std::size_t{1} << 20;
  for (auto [begin, end] : ranges) {
    // A header may begin in the zeros just before the range.
    std::uint64_t at =
        std::max(from, begin - std::min<std::uint64_t>(begin, record_header_size - 1));
    while (at < end && at + record_header_size <= window.limit()) {
      std::uint64_t want = std::min<std::uint64_t>(end - at, scan_chunk) + record_header_size - 1;
      auto bytes = window.bytes(at, static_cast<std::size_t>(want));
      if (bytes.size() < record_header_size) return std::nullopt;  // the file shrank under us
      std::uint64_t tried =
          std::min<std::uint64_t>(bytes.size() - record_header_size + 1, end - at);
      std::uint64_t i = 0;
      while (i < tried && !may_be_wanted(bytes.data() + i, at + i, wanted, first_lsn)) ++i;
      if (i == tried) {
        at += tried;
        continue;
      }
      record_read record = read_record(window, at + i,
                                       {.lsn = wanted.lsn,
                                        .beyond = true,
                                        .marked_above = wanted.marked_above,
                                        .salt = segment.salt});
      if (record.status == record_status::valid) return record.header.lsn;
      if (record.status == record_status::missing || record.status == record_status::truncated)
        return std::nullopt;  // the file shrank under us
      at += i + 1;
    }
  }
  return std::nullopt;
}

// Throws EILSEQ if a record written after the one at the cut (`scan`) had
// been made durable lies in `ranges`: the cut would lose committed data.
void check_nothing_durable_after(const checked_segment& segment, read_window& window,
                                 const byte_ranges& ranges) {
  const scan_result& scan = *segment.scan;
  if (auto later = find_record_after(segment, window, ranges, scan.end_offset,
                                     {scan.next_lsn, scan.next_lsn}))
    throw_corrupt(segment.path, scan.end_offset,
                  "record " + std::to_string(scan.next_lsn) + " is corrupt but record " +
                      std::to_string(*later) + " written after it says it was durable");
}

// What follows the last record of a reused newest segment: its earlier
// lives' records, which never validate (their lsns are smaller), and maybe
// a torn tail of its own. Each batch was padded with zeros to the page end.
void check_reused_tail(const checked_segment& segment, read_window& window, recovery_mode mode) {
  if (mode == recovery_mode::salvage) return;
  const scan_result& scan = *segment.scan;
  byte_ranges rest{{scan.end_offset, window.limit()}};
  if (mode != recovery_mode::absolute_consistency)
    return check_nothing_durable_after(segment, window, rest);
  std::uint64_t padded_to = std::min(window.limit(), page_end(scan.end_offset));
  bool padded = all_zero(window.bytes(scan.end_offset, padded_to - scan.end_offset));
  if (!padded || find_record_after(segment, window, rest, scan.end_offset, {scan.next_lsn - 1, 0}))
    throw_corrupt(segment.path, scan.end_offset,
                  "record " + std::to_string(scan.next_lsn) + " is torn or corrupt");
}

// Throws EILSEQ if the newest segment, read through `window`, was sealed:
// its successor, which held the records from the seal's lsn on, existed
// and is gone. Salvage keeps the records before and goes on after them.
// Returns whether it was sealed.
bool check_not_sealed(const checked_segment& segment, read_window& window, recovery_mode mode) {
  const scan_result& scan = *segment.scan;
  std::optional<std::uint64_t> successor =
      decode_seal(window.bytes(scan.end_offset, seal_size), scan.next_lsn, segment.salt);
  if (successor && mode != recovery_mode::salvage)
    throw_corrupt(segment.path, scan.end_offset,
                  "segment " + segment_name(*successor) +
                      " is missing: this segment was sealed once it existed, and the records "
                      "from lsn " +
                      std::to_string(scan.next_lsn) + " on went there");
  return successor.has_value();
}

// Checks what follows the last valid record of the newest segment, read
// through `window`.
void check_tail(const checked_segment& segment, read_window& window, recovery_mode mode,
                recovered_journal& out) {
  const scan_result& scan = *segment.scan;
  out.tail_offset = scan.end_offset;
  out.tail_size = segment.made_size != 0 ? segment.made_size : window.limit();
  out.tail_version = segment.version;
  out.tail_salt = segment.salt;
  if (check_not_sealed(segment, window, mode) || segment.resized) {  // salvage: a fresh segment
    out.tail_clean = false;
    return;
  }
  if (segment.info.reused) {
    out.tail_clean = false;  // continued in a fresh segment
    return check_reused_tail(segment, window, mode);
  }
  // Asked before any read: readahead would cache zero pages, which count as data.
  window.drop_cached_after(scan.end_offset);
  byte_ranges ranges = window.data_ranges(scan.end_offset);
  out.tail_clean = only_zeros_in(window, ranges);
  bool written_after = out.tail_clean && !ranges.empty() && ranges.front().first == scan.end_offset;
  out.tail_zeroed = written_after ? ranges.front().second : scan.end_offset;
  if (out.tail_clean || mode == recovery_mode::salvage) return;
  if (mode == recovery_mode::absolute_consistency)
    throw_corrupt(segment.path, scan.end_offset,
                  "record " + std::to_string(scan.next_lsn) + " is torn or corrupt");
  check_nothing_durable_after(segment, window, ranges);
}

// What the first phase of recovery found: every segment's header checked, in
// order, and the records read of those recovery reaches.
struct checked_journal {
  std::vector<checked_segment> segments;
  std::unique_ptr<segment_reader> reached;  // the last reached segment's, for its tail
};

// Reads the records of `segment`, which recovery reached, through the reader
// that checked its header (so its first MiB is read once). A failed read is
// kept in the segment, to be reported once the segments before it are: a bad
// header further on is reported first. Returns whether recovery goes on.
bool read_reached(checked_segment& segment, segment_reader& reader) {
  try {
    segment.scan = scan_records(reader.window, segment.info.first_lsn, segment.salt);
    return true;
  } catch (...) {
    segment.scan_failed = std::current_exception();
    return false;
  }
}

// Phase 1: checks every header, in order, before anything is reported or
// renamed. Recovery reaches a segment only if the one before it was read
// without error and its records run on to this header's first lsn; only a
// reached segment has its records read, and no segment after a cut or a
// failed read is read past its header. A gap in the numbers is damage
// (salvage sets aside what follows it).
checked_journal check_segments(const journal_directory& dir,
                               const std::vector<std::uint64_t>& numbers, recovery_mode mode,
                               recovery_changes& changes) {
  checked_journal checked;
  std::unique_ptr<segment_reader> beyond;  // the segment being checked
  bool reaching = true;
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    if (i > 0 && numbers[i] != numbers[i - 1] + 1) {
      if (mode != recovery_mode::salvage)
        throw_corrupt(dir.path_of(segment_name(numbers[i - 1] + 1)), 0, "segment missing");
      for (std::size_t j = i; j < numbers.size(); ++j) changes.set_aside(numbers[j]);
      break;
    }
    checked_segment segment = open_checked_segment(dir, numbers[i], beyond, mode);
    if (reaching && i > 0 && checked.segments.back().scan->next_lsn != segment.info.first_lsn)
      reaching = false;  // the segment before is cut: recovery ends there
    if (reaching) {
      checked.reached = std::move(beyond);  // the previous reached segment's reader goes
      reaching = read_reached(segment, *checked.reached);
    }
    checked.segments.push_back(std::move(segment));
  }
  return checked;
}

// Phase 2: reports in order what phase 1 found (the first failed read, or
// the first segment whose records do not run on to the next one's header;
// salvage sets aside the segments after it) and checks the newest kept
// segment's tail. Fills out.segments and the tail; returns the next lsn.
std::uint64_t report_in_order(const checked_journal& checked, recovery_mode mode,
                              recovery_changes& changes, recovered_journal& out) {
  const std::vector<checked_segment>& segments = checked.segments;
  std::uint64_t lsn = segments.front().info.first_lsn;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const checked_segment& segment = segments[i];
    if (segment.scan_failed) std::rethrow_exception(segment.scan_failed);
    out.segments.push_back(segment.info);
    lsn = segment.scan->next_lsn;
    bool newest = i + 1 == segments.size();
    if (!newest && segments[i + 1].info.first_lsn != lsn) {
      if (mode != recovery_mode::salvage)
        throw_corrupt(segment.path, segment.scan->end_offset,
                      "record " + std::to_string(lsn) +
                          " is corrupt but the next segment starts at lsn " +
                          std::to_string(segments[i + 1].info.first_lsn));
      for (std::size_t j = i + 1; j < segments.size(); ++j)
        changes.set_aside(segments[j].info.number);
      newest = true;
    }
    if (newest) {  // the last segment read: `reached` still holds its window
      check_tail(segment, checked.reached->window, mode, out);
      break;
    }
  }
  return lsn;
}

// Phase 3: only now, every header checked and every error reported, and only
// to the `kept` first segments: salvage gives them back the size they were
// made with.
void restore_kept_sizes(const std::vector<checked_segment>& segments, std::size_t kept,
                        const recovery_changes& changes) {
  for (std::size_t i = 0; i < kept; ++i)
    if (segments[i].resized) changes.restore_size(segments[i].info.number, segments[i].made_size);
}

}  // namespace

void recovery_changes::remove_leftover(const std::string& name) const {
  if (allowed_) dir_.remove(name);
}

void recovery_changes::set_aside(std::uint64_t segment_number) {
  if (!allowed_) return;
  std::string name = segment_name(segment_number);
  dir_.rename(name, name + ".corrupt");
  set_aside_any_ = true;
}

void recovery_changes::restore_size(std::uint64_t segment_number, std::uint64_t size) const {
  if (!allowed_) return;
  file segment = open_segment(dir_, segment_name(segment_number), open_mode::open_existing);
  segment.resize(size);
  segment.sync_data();
  segment.close();
}

void recovery_changes::finish() const {
  if (set_aside_any_) dir_.sync();
}

recovered_journal recover_journal(const journal_directory& dir, recovery_mode mode,
                                  recovery_changes changes) {
  recovered_journal out;
  std::vector<std::uint64_t> numbers = segment_numbers(dir, out.spares, changes);
  if (numbers.empty()) return out;
  checked_journal checked = check_segments(dir, numbers, mode, changes);
  out.next_lsn = report_in_order(checked, mode, changes, out);
  restore_kept_sizes(checked.segments, out.segments.size(), changes);
  changes.finish();
  return out;
}

}  // namespace sluice::detail
