// The journal's segments in its directory: opening, creating, reusing and
// sealing them, and a windowed reader over one. Everything through
// sluice::file, journal_directory and detail::sys.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "journal/journal_directory.hpp"
#include "sluice/file.hpp"

namespace sluice::detail {

// Opens segment (or spare) `name` of `dir`, for reading (open_mode::
// read_only) or reading and writing (open_mode::open_existing): a regular
// file, never waiting (journal_directory::open_regular). Throws
// system_error: EINVAL naming what the file is instead ("it is a FIFO, not
// a journal segment"), or the errno of a failed call.
file open_segment(const journal_directory& dir, std::string_view name, open_mode mode);

// The state of a new segment's blocks, which decides how commits write
// into it (journal_state::tail_zeroed and tail_uncached).
enum class segment_blocks {
  unwritten,         // reserved by fallocate: zeros go ahead of the records
  written_cached,    // written with zeros by the journal: its pages are cached
  written_uncached,  // zeroed by the disk, or a spare's: no page is cached
};

// A segment create_segment() made, open for reading and writing.
struct new_segment {
  file segment;
  segment_blocks blocks = segment_blocks::unwritten;
};

// Creates segment `number` of `dir`, `size` bytes, first record `first_lsn`:
// <name>.tmp is created and its blocks reserved, it is given its header and
// fdatasynced, then renamed and the directory fsynced. The blocks are zeroed
// by the disk where the kernel and the disk can do it without writing them
// (FALLOC_FL_WRITE_ZEROES: Linux 6.17 or later, a disk with an unmapping
// write-zeroes command; a refusal costs one system call); else preallocated
// (where fallocate is unsupported, the file is sized, sparse) and, with
// `zero_fill`, written with zeros. Throws system_error; a leftover .tmp is
// harmless.
new_segment create_segment(const journal_directory& dir, std::uint64_t number,
                           std::uint64_t first_lsn, std::uint64_t size, bool zero_fill);

// Makes spare `spare` of `dir` segment `number`, first record `first_lsn`,
// if it is `size` bytes long: its header is rewritten (marked reused, with
// `salt`, non-zero, for its records' checksums) and fdatasynced, then it is
// renamed and the directory fsynced. Its blocks are all written already, so
// commits into it never carry zeros or extent state. Returns it open for
// reading and writing; a spare of another size is removed instead, and an
// empty file returned. Throws system_error.
file reuse_spare(const journal_directory& dir, std::uint64_t spare, std::uint64_t number,
                 std::uint64_t first_lsn, std::uint64_t size, std::uint32_t salt);

// The successor a seal names, and the salt of the segment it seals.
struct seal_info {
  std::uint64_t next_lsn;     // the successor's first lsn
  std::uint64_t next_number;  // the successor's segment number
  std::uint32_t salt;         // of the sealed segment's records
};

// Seals `segment`, `size` bytes long, whose records end at `offset`, once
// its successor exists durably: writes the seal there (encode_seal), with
// zeros to the page end, and fdatasyncs it, so that recovery can tell a missing newest segment from
// a journal that ends here. A segment of an older format full to its end has no room for a seal and
// is left as it is. Throws system_error; a failed sync poisons `segment`.
void seal_segment(file& segment, std::uint64_t offset, std::uint64_t size, const seal_info& seal);

// 1 MiB of zeros, static, to write from.
inline constexpr std::size_t zero_block_size = std::size_t{1} << 20;
std::span<const std::byte, zero_block_size> zero_block();

// Reads a file through a buffer of at least 1 MiB: bytes(offset, n) returns
// up to n bytes at `offset` (fewer only at the end of `limit`), valid until
// the next call. One pread per buffer refill.
class read_window {
 public:
  read_window(file& source, std::uint64_t limit) : source_(source), limit_(limit) {}
  std::span<const std::byte> bytes(std::uint64_t offset, std::size_t n);
  std::uint64_t limit() const noexcept { return limit_; }
  // Reads nothing at or past `limit` from now on (if below the current one).
  void limit_to(std::uint64_t limit) noexcept { limit_ = std::min(limit_, limit); }
  // The ranges [begin, end) from `offset` to limit() that may hold non-zero
  // bytes, in order: the filesystem's SEEK_DATA and SEEK_HOLE (two lseeks a
  // range, no read), so that unwritten and sparse blocks, which read as
  // zeros, need not be read. Asked all at once, before reading any: a read's
  // readahead caches zero pages of unwritten blocks, which SEEK_DATA then
  // counts as data. Where the filesystem cannot say, or an lseek fails, the
  // range runs on to limit().
  std::vector<std::pair<std::uint64_t, std::uint64_t>> data_ranges(std::uint64_t offset) const;
  // Drops the clean cached pages from the first page boundary at or after
  // `offset` to the end (POSIX_FADV_DONTNEED, one fadvise; dirty pages are
  // kept, and a failure keeps them all). Readahead caches the zeros of
  // unwritten blocks, and SEEK_DATA counts cached pages as data: dropped
  // before data_ranges(), so that they are not read as data again.
  void drop_cached_after(std::uint64_t offset) const noexcept;

 private:
  file& source_;
  std::uint64_t limit_;
  std::uint64_t start_ = 0;
  std::vector<std::byte> buffer_;
};

}  // namespace sluice::detail
