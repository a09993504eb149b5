// journal::read_from and the cursor it returns.
#include <cerrno>
#include <optional>
#include <string>

#include "journal/format.hpp"
#include "journal/read_window.hpp"
#include "journal/segments.hpp"
#include "journal/state.hpp"
#include "os/error_messages.hpp"
#include "os/path_text.hpp"
#include "sluice/journal.hpp"

namespace sluice {
namespace detail {

struct cursor_state {
  std::shared_ptr<const journal_directory> dir;  // the journal's, held open
  std::shared_ptr<const int> alive;    // journal_state::cursors: no spare is reused meanwhile
  std::vector<segment_info> segments;  // as they were at read_from()
  std::uint64_t want;                  // the next lsn to return
  std::uint64_t end;                   // one past the last lsn to return
  std::size_t index = 0;               // the segment open in `current`
  file current;
  std::optional<read_window> window;
  std::uint64_t offset = 0;    // of the next record in `current`
  std::uint64_t expected = 0;  // its lsn
  std::uint32_t salt = 0;      // of `current`'s records
};

namespace {

std::filesystem::path segment_path(const cursor_state& c) {
  return c.dir->path_of(segment_name(c.segments[c.index].number));
}

[[noreturn]] void throw_corrupt(const cursor_state& c, const std::string& reason) {
  throw std::system_error(
      EILSEQ, std::generic_category(),
      describe("read journal", path_text(segment_path(c)), c.offset) + ": " + reason);
}

// Why the record the cursor expects at c.offset is not there, as EILSEQ.
[[noreturn]] void throw_bad_record(const cursor_state& c, record_status status) {
  const char* why = status == record_status::missing     ? " is missing"
                    : status == record_status::rejected  ? " is corrupt"
                    : status == record_status::truncated ? " is cut short: the file ends inside it"
                                                         : " fails its checksum";
  throw_corrupt(c, "record " + std::to_string(c.expected) + why);
}

void open_current(cursor_state& c) {
  c.current = open_segment(*c.dir, segment_name(c.segments[c.index].number), open_mode::read_only);
  c.window.emplace(c.current, c.current.size());
  segment_header header{};
  if (auto problem = check_segment_header(c.window->bytes(0, segment_header_size),
                                          c.segments[c.index].number, header))
    throw std::system_error(
        problem->error, std::generic_category(),
        describe("read journal", path_text(segment_path(c))) + ": " + problem->message);
  c.offset = segment_header_size;
  c.expected = header.first_lsn;
  c.salt = header.salt;
}

// Opens the segment holding the next lsn the cursor needs: c.want on the
// first call, then the one after the last record read, so a segment is left
// once the next one starts at or before it. No I/O unless it opens one.
void position(cursor_state& c) {
  std::uint64_t next = c.current.is_open() ? c.expected : c.want;
  std::size_t index = c.index;
  while (index + 1 < c.segments.size() && c.segments[index + 1].first_lsn <= next) ++index;
  if (c.current.is_open() && index == c.index) return;
  c.index = index;
  open_current(c);
}

// Reads and checks the record at c.offset; returns its payload.
std::span<const std::byte> take_record(cursor_state& c) {
  record_read record = read_record(*c.window, c.offset, {.lsn = c.expected, .salt = c.salt});
  if (record.status != record_status::valid) throw_bad_record(c, record.status);
  c.offset += record.size();
  ++c.expected;
  return record.payload;
}

}  // namespace
}  // namespace detail

journal_cursor::journal_cursor(std::unique_ptr<detail::cursor_state> state) noexcept
    : state_(std::move(state)) {}
journal_cursor::journal_cursor(journal_cursor&&) noexcept = default;
journal_cursor& journal_cursor::operator=(journal_cursor&&) noexcept = default;
journal_cursor::~journal_cursor() = default;

std::optional<journal_record> journal_cursor::next() {
  detail::cursor_state& c = *state_;
  while (c.want < c.end) {
    detail::position(c);
    std::uint64_t lsn = c.expected;
    std::span<const std::byte> data = detail::take_record(c);
    if (lsn >= c.want) {
      c.want = lsn + 1;
      return journal_record{lsn, data};
    }
  }
  return std::nullopt;
}

journal_cursor journal::read_from(std::uint64_t lsn) {
  if (!state_)
    throw std::system_error(EBADF, std::generic_category(), "sluice: read journal: not open");
  detail::journal_state& s = *state_;
  detail::check_not_inherited(s, "read journal");
  auto cursor = std::make_unique<detail::cursor_state>();
  std::lock_guard lock(s.mutex);
  detail::check_usable(s, "read journal");
  std::uint64_t oldest = detail::oldest_kept(s);
  if (lsn < oldest)
    throw std::system_error(ERANGE, std::generic_category(),
                            detail::describe("read journal", detail::path_text(s.path())) +
                                ": lsn " + std::to_string(lsn) +
                                " is older than the oldest kept, " + std::to_string(oldest));
  cursor->dir = s.dir;
  cursor->alive = s.cursors;
  cursor->segments = s.segments;
  cursor->want = lsn;
  cursor->end = s.durable_end;
  return journal_cursor(std::move(cursor));
}

}  // namespace sluice
