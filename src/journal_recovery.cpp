#include "journal_recovery.hpp"

#include <algorithm>
#include <cerrno>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "journal_dir.hpp"
#include "journal_format.hpp"
#include "sluice/detail/sys.hpp"
#include "sluice/error.hpp"

namespace sluice::detail {
namespace {

[[noreturn]] void throw_corrupt(const std::filesystem::path& segment, std::uint64_t offset,
                                const std::string& reason) {
  throw std::system_error(EILSEQ, std::generic_category(),
                          describe("recover journal", segment.native(), offset) + ": " + reason);
}

// The segment numbers in `dir`, sorted; removes *.tmp leftovers.
std::vector<std::uint64_t> segment_numbers(const std::filesystem::path& dir) {
  std::vector<std::uint64_t> numbers;
  for (const std::string& name : list_directory(dir)) {
    parsed_entry entry = parse_entry(name);
    if (entry.kind == entry_kind::foreign)
      throw std::system_error(EINVAL, std::generic_category(),
                              describe("open journal", dir.native()) +
                                  ": not a journal directory (it holds '" + name + "')");
    if (entry.kind == entry_kind::segment) numbers.push_back(entry.number);
    if (entry.kind == entry_kind::temporary && sys().unlink((dir / name).c_str()) != 0)
      throw_error(errno, "remove", (dir / name).native());
  }
  std::sort(numbers.begin(), numbers.end());
  return numbers;
}

struct scan_result {
  std::uint64_t end_offset;  // after the last valid record
  std::uint64_t next_lsn;    // one past it
};

// Follows the valid records of a segment from its header on.
scan_result scan_records(read_window& window, std::uint64_t lsn) {
  std::uint64_t offset = segment_header_size;
  for (;;) {
    record_read record = read_record(window, offset, {lsn});
    if (record.status != record_status::valid) break;
    offset += record.size();
    ++lsn;
  }
  return {offset, lsn};
}

// A segment open for reading through one window over all of it. Held by
// pointer and never moved: the window refers to the handle.
struct segment_reader {
  explicit segment_reader(const std::filesystem::path& path)
      : handle(file::open(path, {.mode = open_mode::read_only})), window(handle, handle.size()) {}
  file handle;
  read_window window;
};

// A segment whose header was checked and, if recovery reaches it, whose
// records were followed from the header's first lsn on.
struct checked_segment {
  std::filesystem::path path;
  segment_info info;
  std::optional<scan_result> scan;  // only if reached and read
  std::exception_ptr scan_failed;   // a failed read, reported once reached
};

// Opens segment `number` of `dir` into `reader` (replacing what it held)
// and checks its header. Throws std::system_error naming the segment
// (EINVAL, EPROTONOSUPPORT) or the errno of a failed open, stat or read.
checked_segment open_checked_segment(const std::filesystem::path& dir, std::uint64_t number,
                                     std::unique_ptr<segment_reader>& reader) {
  checked_segment segment{dir / segment_name(number), {number, 0}, {}, {}};
  reader.reset();  // the previous reader and its buffer go first
  reader = std::make_unique<segment_reader>(segment.path);
  segment_header header{};
  if (auto problem =
          check_segment_header(reader->window.bytes(0, segment_header_size), number, header))
    throw std::system_error(
        problem->error, std::generic_category(),
        describe("open journal segment", segment.path.native()) + ": " + problem->message);
  segment.info.first_lsn = header.first_lsn;
  return segment;
}

// Reads only the ranges the filesystem says may hold data: the unwritten
// end of a preallocated segment is skipped, not read.
bool only_zeros_after(read_window& window, std::uint64_t offset) {
  constexpr std::uint64_t chunk = 64 * 1024;
  window.drop_cached_after(offset);
  for (auto [begin, end] : window.data_ranges(offset))
    for (std::uint64_t at = begin; at < end; at += chunk)
      if (!all_zero(window.bytes(at, static_cast<std::size_t>(std::min(chunk, end - at)))))
        return false;
  return true;
}

// A valid record after `from` whose durable mark says record `cut_lsn` had
// been made durable: proof that the cut at `from` loses committed data.
std::optional<std::uint64_t> durable_record_after(read_window& window, std::uint64_t from,
                                                  std::uint64_t cut_lsn) {
  for (std::uint64_t at = from; at + record_header_size <= window.limit(); ++at) {
    record_read record = read_record(window, at, {.lsn = cut_lsn, .beyond = true});
    if (record.status == record_status::valid) return record.header.lsn;
    if (record.status == record_status::missing || record.status == record_status::truncated)
      break;  // the file shrank under us
  }
  return std::nullopt;
}

void rename_corrupt(const std::filesystem::path& dir, std::uint64_t number) {
  std::filesystem::path from = dir / segment_name(number);
  std::filesystem::path to = from;
  to += ".corrupt";
  if (sys().rename(from.c_str(), to.c_str()) != 0) throw_error(errno, "rename", from.native());
}

// Checks what follows the last valid record of the newest segment, read
// through `window`.
void check_tail(const checked_segment& segment, read_window& window, recovery_mode mode,
                recovered_journal& out) {
  const scan_result& scan = *segment.scan;
  out.tail_offset = scan.end_offset;
  out.tail_size = window.limit();
  out.tail_clean = only_zeros_after(window, scan.end_offset);
  if (out.tail_clean || mode == recovery_mode::salvage) return;
  if (mode == recovery_mode::absolute_consistency)
    throw_corrupt(segment.path, scan.end_offset,
                  "record " + std::to_string(scan.next_lsn) + " is torn or corrupt");
  if (auto later = durable_record_after(window, scan.end_offset, scan.next_lsn))
    throw_corrupt(segment.path, scan.end_offset,
                  "record " + std::to_string(scan.next_lsn) + " is corrupt but record " +
                      std::to_string(*later) + " written after it says it was durable");
}

}  // namespace

recovered_journal recover_journal(const std::filesystem::path& dir, recovery_mode mode) {
  recovered_journal out;
  std::vector<std::uint64_t> numbers = segment_numbers(dir);
  if (numbers.empty()) return out;
  // Every header is checked, in order, before anything is reported or
  // renamed. Recovery reaches a segment only if the one before it was read
  // without error and its records run on to this header's first lsn; only a
  // reached segment has its records read, through the window that checked its
  // header, so its first MiB is read once. A failed read is kept until the
  // second loop reaches that segment, so a bad header later on is still
  // reported first, and no segment after it is read past its header.
  std::vector<checked_segment> segments;
  std::unique_ptr<segment_reader> reached;  // the last reached segment's, for its tail
  std::unique_ptr<segment_reader> beyond;   // the segment being checked
  bool reaching = true;
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    if (i > 0 && numbers[i] != numbers[i - 1] + 1) {
      if (mode != recovery_mode::salvage)
        throw_corrupt(dir / segment_name(numbers[i - 1] + 1), 0, "segment missing");
      for (std::size_t j = i; j < numbers.size(); ++j) rename_corrupt(dir, numbers[j]);
      break;
    }
    if (!reaching) {
      segments.push_back(open_checked_segment(dir, numbers[i], beyond));
      continue;
    }
    checked_segment segment = open_checked_segment(dir, numbers[i], beyond);
    if (i > 0 && segments.back().scan->next_lsn != segment.info.first_lsn) {
      reaching = false;  // the segment before is cut: recovery ends there
      segments.push_back(std::move(segment));
      continue;
    }
    reached = std::move(beyond);  // the previous reached segment's reader goes
    try {
      segment.scan = scan_records(reached->window, segment.info.first_lsn);
    } catch (...) {
      segment.scan_failed = std::current_exception();
      reaching = false;
    }
    segments.push_back(std::move(segment));
  }
  beyond.reset();
  // Reports in order what the first loop found: the first failed read, or the
  // first segment whose records do not run on to the next one's header.
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
        rename_corrupt(dir, segments[j].info.number);
      newest = true;
    }
    if (newest) {  // the last segment read: `reached` still holds its window
      check_tail(segment, reached->window, mode, out);
      break;
    }
  }
  out.next_lsn = lsn;
  if (mode == recovery_mode::salvage) sync_directory(dir);
  return out;
}

}  // namespace sluice::detail
