#include "journal/segments.hpp"

#include <algorithm>
#include <cerrno>

#include "journal/format.hpp"
#include "os/error_messages.hpp"
#include "os/sys.hpp"
#include "os/transfer.hpp"

namespace sluice::detail {
namespace {

constexpr std::size_t window_size = std::size_t{1} << 20;

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

// Reserves [0, size) of the new `segment` (create_segment() says how).
segment_blocks reserve_blocks(file& segment, std::uint64_t size, bool zero_fill) {
  if (zeroed_by_disk(segment, size)) return segment_blocks::written_uncached;
  try {
    segment.preallocate(0, size);
  } catch (const std::system_error& e) {
    if (e.code().value() != EOPNOTSUPP) throw;
    segment.resize(size);  // sparse, but the size is fixed all the same
  }
  if (!zero_fill) return segment_blocks::unwritten;
  write_zeros(segment, size);
  return segment_blocks::written_cached;
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
                           std::uint64_t first_lsn, std::uint64_t size, bool zero_fill) {
  std::string name = segment_name(number), temporary = name + ".tmp";
  file segment = dir.open_regular(temporary,
                                  {.mode = open_request::access::read_write,
                                   .create = true,
                                   .exclusive = true,
                                   .permissions = 0666},
                                  "a journal segment");
  segment_blocks blocks = reserve_blocks(segment, size, zero_fill);
  segment.write_at(encode_segment_header({.number = number, .first_lsn = first_lsn, .size = size}),
                   0);
  segment.sync_data();
  dir.rename(temporary, name);
  dir.sync();
  return {file(segment.release(), dir.path_of(name).native()), blocks};
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
  return file(segment.release(), dir.path_of(name).native());
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

std::vector<std::pair<std::uint64_t, std::uint64_t>> read_window::data_ranges(
    std::uint64_t offset) const {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  int fd = source_.native_handle();
  while (offset < limit_) {
    std::int64_t data = sys().seek_region(fd, static_cast<std::int64_t>(offset), region::data);
    if (data < 0 && errno == ENXIO) break;  // nothing but holes to the end
    if (data < 0 || static_cast<std::uint64_t>(data) < offset)
      data = static_cast<std::int64_t>(offset);
    if (static_cast<std::uint64_t>(data) >= limit_) break;
    std::int64_t hole = sys().seek_region(fd, data, region::hole);
    std::uint64_t end = hole > data ? std::min(static_cast<std::uint64_t>(hole), limit_) : limit_;
    ranges.emplace_back(static_cast<std::uint64_t>(data), end);
    offset = end;
  }
  return ranges;
}

void read_window::drop_cached_after(std::uint64_t offset) const noexcept {
  std::uint64_t from = page_end(offset);
  if (from < limit_)
    (void)sys().drop_cache(source_.native_handle(), static_cast<std::int64_t>(from),
                           static_cast<std::int64_t>(limit_ - from));
}

std::span<const std::byte> read_window::bytes(std::uint64_t offset, std::size_t n) {
  if (offset >= limit_) return {};
  n = static_cast<std::size_t>(std::min<std::uint64_t>(n, limit_ - offset));
  if (offset < start_ || offset + n > start_ + buffer_.size()) {
    std::size_t want = static_cast<std::size_t>(
        std::min<std::uint64_t>(std::max(n, window_size), limit_ - offset));
    buffer_.resize(want);
    buffer_.resize(source_.read_at(buffer_, offset));
    start_ = offset;
    n = std::min(n, buffer_.size());
  }
  return {buffer_.data() + (offset - start_), n};
}

}  // namespace sluice::detail
