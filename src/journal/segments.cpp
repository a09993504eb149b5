#include "journal/segments.hpp"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "journal/format.hpp"
#include "os/error_messages.hpp"
#include "os/path_text.hpp"
#include "os/sys.hpp"
#include "os/transfer.hpp"

namespace sluice::detail {
namespace {

// Writes zeros over [0, size) of `segment`, 1 MiB per pwritev.
void write_zeros(file& segment, std::uint64_t size) {
  for (std::uint64_t at = 0; at < size;) {
    std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(zero_block_size, size - at));
    segment.write_at(zero_block().first(n), at);
    at += n;
  }
}

// Whether the disk zeroed [0, size) of `segment` into written blocks. False
// where the kernel, the filesystem or the disk cannot (EOPNOTSUPP, or EINVAL
// from one that does not know the mode). Throws system_error on any other
// failure (ENOSPC, EIO).
bool zeroed_by_disk(file& segment, std::uint64_t size) {
  if (restart_interrupted([&] {
        return sys().preallocate(segment.native_handle(), 0, static_cast<std::int64_t>(size),
                                 space_mode::written_zeros);
      }) == 0)
    return true;
  if (errno == EOPNOTSUPP || errno == EINVAL) return false;
  throw_error(errno, "preallocate", segment.path(), 0);
}

// Asks for the new, empty `segment` to be overwritten in place. Where the
// filesystem has no such attribute (EOPNOTSUPP, ENOTTY, EINVAL) it stays as
// it is; throws system_error on any other failure.
void keep_in_place(file& segment) {
  if (sys().set_no_copy_on_write(segment.native_handle()) == 0) return;
  if (errno == EOPNOTSUPP || errno == ENOTTY || errno == EINVAL) return;
  throw_error(errno, "set no-copy-on-write", segment.path());
}

// Reserves [0, size) of `segment` with fallocate; where that is
// unsupported, sizes it only (sparse, but the size is fixed all the same).
void preallocate_or_size(file& segment, std::uint64_t size) {
  try {
    segment.preallocate(0, size);
  } catch (const std::system_error& e) {
    if (e.code().value() != EOPNOTSUPP) throw;
    segment.resize(size);
  }
}

// Reserves [0, size) of the new `segment` (create_segment() says how).
segment_blocks reserve_blocks(file& segment, std::uint64_t size, bool zero_fill,
                              const filesystem_choices& choices) {
  if (choices.no_copy_on_write) keep_in_place(segment);
  if (!choices.preallocate)
    segment.resize(size);  // sparse: blocks are taken as records land
  else if (zeroed_by_disk(segment, size))
    return segment_blocks::written_uncached;
  else
    preallocate_or_size(segment, size);
  if (!zero_fill) return segment_blocks::unwritten;
  write_zeros(segment, size);
  return segment_blocks::written_cached;
}

// The spare to make a segment of `size` bytes from, taken: none unless reuse
// is on, one is kept, the segment has the usual size (a record larger than
// that gets a segment of its own, which leaves the spare for the next) and
// no cursor may be reading the spare.
std::optional<std::uint64_t> take_spare(journal_state& state, std::uint64_t size) {
  std::lock_guard lock(state.mutex);
  if (!state.options.reuse_segments || size != state.options.segment_size ||
      state.cursors.use_count() > 1)
    return std::nullopt;
  return std::exchange(state.spare_segment, std::nullopt);
}

// Removes segment `number` of the journal, or renames it to its spare name
// if `as_spare`. Throws system_error.
void drop_segment(const journal_state& state, std::uint64_t number, bool as_spare) {
  if (as_spare)
    state.dir->rename(segment_name(number), spare_name(number));
  else
    state.dir->remove(segment_name(number));
}

// Takes the `count` oldest segments, whose files are gone, off the
// journal's list.
void forget_segments(journal_state& state, std::size_t count) noexcept {
  std::lock_guard lock(state.mutex);
  state.segments.erase(state.segments.begin(),
                       state.segments.begin() + static_cast<std::ptrdiff_t>(count));
}

}  // namespace

file open_segment(const journal_directory& dir, std::string_view name, open_mode mode) {
  using access = open_request::access;
  return dir.open_regular(
      name, {.mode = mode == open_mode::read_only ? access::read : access::read_write},
      "a journal segment");
}

std::span<const std::byte, zero_block_size> zero_block() {
  static const std::byte zeros[zero_block_size]{};
  return std::span(zeros);
}

new_segment create_segment(const journal_directory& dir, std::uint64_t number,
                           std::uint64_t first_lsn, std::uint64_t size, bool zero_fill,
                           const filesystem_choices& choices) {
  std::string name = segment_name(number), temporary = name + ".tmp";
  file segment = dir.open_regular(temporary,
                                  {.mode = open_request::access::read_write,
                                   .create = true,
                                   .exclusive = true,
                                   .permissions = 0666},
                                  "a journal segment");
  segment_blocks blocks = reserve_blocks(segment, size, zero_fill, choices);
  segment.write_at(encode_segment_header({.number = number, .first_lsn = first_lsn, .size = size}),
                   0);
  segment.sync_data();
  dir.rename(temporary, name);
  dir.sync();
  return {file(segment.release(), path_text(dir.path_of(name))), blocks};
}

file reuse_spare(const journal_directory& dir, std::uint64_t spare, std::uint64_t number,
                 std::uint64_t first_lsn, std::uint64_t size, std::uint32_t salt) {
  std::string spare_file = spare_name(spare), name = segment_name(number);
  file segment = open_segment(dir, spare_file, open_mode::open_existing);
  if (segment.size() != size) {
    segment.close();
    dir.remove(spare_file);
    return {};
  }
  segment.write_at(
      encode_segment_header(
          {.number = number, .first_lsn = first_lsn, .size = size, .reused = true, .salt = salt}),
      0);
  segment.sync_data();
  dir.rename(spare_file, name);
  dir.sync();
  return file(segment.release(), path_text(dir.path_of(name)));
}

void seal_segment(file& segment, std::uint64_t offset, std::uint64_t size, const seal_info& seal) {
  if (offset + seal_size > size) return;
  std::vector<std::byte> bytes = encode_seal(seal.next_lsn, seal.next_number, seal.salt);
  // Zeros to the page end, as after a batch: a write that ends inside a
  // page that is not cached makes the kernel read that page first.
  bytes.resize(std::min(size, page_end(offset + seal_size)) - offset);
  segment.write_at(bytes, offset);
  segment.sync_data();
}

void use_tail(journal_state& state, file segment, std::uint64_t offset, std::uint64_t capacity,
              std::uint64_t zeroed) {
  for (unsigned i = 0; i < state.options.concurrent_syncs; ++i)
    state.syncers[i] =
        open_segment(*state.dir, path_text(std::filesystem::path(segment.path()).filename()),
                     open_mode::open_existing);
  state.tail = std::move(segment);
  state.tail_offset = offset;
  state.tail_capacity = capacity;
  state.tail_zeroed = zeroed;
  state.tail_salt = 0;
  state.tail_uncached = false;
}

void start_segment(journal_state& state, std::uint64_t number, std::uint64_t first_lsn,
                   std::uint64_t size) {
  std::uint32_t salt = 0;
  new_segment next;
  if (std::optional<std::uint64_t> spare = take_spare(state, size)) {
    salt = new_segment_salt(number, first_lsn);
    next = {reuse_spare(*state.dir, *spare, number, first_lsn, size, salt),
            segment_blocks::written_uncached};
  }
  bool reused = next.segment.is_open();
  if (!reused)
    next = create_segment(*state.dir, number, first_lsn, size, state.options.zero_fill,
                          *state.choices);
  if (state.tail.is_open())  // a rotation: the successor exists now, durably
    seal_segment(state.tail, state.tail_offset, state.tail_capacity,
                 {.next_lsn = first_lsn, .next_number = number, .salt = state.tail_salt});
  state.tail.close();
  for (file& syncer : state.syncers) syncer.close();
  bool written = next.blocks != segment_blocks::unwritten;
  use_tail(state, std::move(next.segment), segment_header_size, size,
           written ? size : segment_header_size);
  state.tail_salt = reused ? salt : 0;
  state.tail_uncached = next.blocks == segment_blocks::written_uncached;
  std::lock_guard lock(state.mutex);
  state.segments.push_back({number, first_lsn, reused});
}

void rotate_segment(journal_state& state, std::uint64_t first_lsn, std::uint64_t batch_bytes) {
  state.tail.sync_data();  // a segment's records are durable before the next segment's
  std::uint64_t number;
  {
    std::lock_guard lock(state.mutex);
    number = state.segments.back().number + 1;
  }
  // A batch larger than a segment gets one of its own, to the page end.
  std::uint64_t needed = segment_header_size + batch_bytes + seal_size;
  std::uint64_t size =
      needed <= state.options.segment_size ? state.options.segment_size : page_end(needed);
  start_segment(state, number, first_lsn, size);
}

void keep_spares(journal_state& state, const recovered_journal& found) {
  for (std::uint64_t spare : found.spares) {
    bool usable = state.options.reuse_segments && !found.segments.empty() &&
                  spare < found.segments.front().number &&
                  (!state.spare_segment || spare > *state.spare_segment);
    if (usable && state.spare_segment) state.dir->remove(spare_name(*state.spare_segment));
    if (usable)
      state.spare_segment = spare;
    else
      state.dir->remove(spare_name(spare));
  }
  if (state.spare_segment)
    open_segment(*state.dir, spare_name(*state.spare_segment), open_mode::read_only).close();
}

void continue_recovered(journal_state& state, const recovered_journal& found) {
  std::uint64_t newest = found.segments.back().number;
  file last = open_segment(*state.dir, segment_name(newest), open_mode::open_existing);
  last.sync_data();
  bool continuable = found.tail_clean && found.tail_version == journal_version &&
                     found.tail_offset + seal_size <= found.tail_size;
  if (!continuable) {
    start_segment(state, newest + 1, state.next_lsn, state.options.segment_size);
    seal_segment(last, found.tail_offset, found.tail_size,
                 {.next_lsn = state.next_lsn, .next_number = newest + 1, .salt = found.tail_salt});
    last.close();
    return;
  }
  // The segment's name may still be an unsynced rename of the process that
  // created it: made durable before a commit into it can be acknowledged.
  state.dir->sync();
  use_tail(state, std::move(last), found.tail_offset, found.tail_size, found.tail_zeroed);
}

void remove_segments_before(journal_state& state, std::uint64_t lsn) {
  std::lock_guard one_at_a_time(state.truncating);
  // The doomed segments stay listed until their files are gone: a failure,
  // or running out of memory here, leaves no gap in the numbers.
  std::vector<std::uint64_t> doomed;
  bool keep = false;  // the newest doomed becomes the spare
  {
    std::lock_guard lock(state.mutex);
    check_usable(state, "truncate journal");
    std::size_t count = 0;
    while (count + 1 < state.segments.size() && state.segments[count + 1].first_lsn <= lsn) ++count;
    doomed.reserve(count);
    for (std::size_t i = 0; i < count; ++i) doomed.push_back(state.segments[i].number);
    keep = state.options.reuse_segments && count > 0 && !state.spare_segment;
  }
  std::size_t done = 0;
  try {
    for (; done < doomed.size(); ++done)
      drop_segment(state, doomed[done], keep && done + 1 == doomed.size());
  } catch (...) {
    forget_segments(state, done);
    throw;
  }
  forget_segments(state, done);
  if (doomed.empty()) return;
  state.dir->sync();
  // Only now: a segment made from the spare rewrites its header, which
  // must never land under the segment's old name.
  if (!keep) return;
  std::lock_guard lock(state.mutex);
  state.spare_segment = doomed.back();
}

}  // namespace sluice::detail
