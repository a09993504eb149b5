// A journal segment's lifecycle, all of it: created (or made from a spare)
// and made the tail, rotated (the tail synced, its successor started, the
// tail sealed), continued or sealed when a journal reopens, and removed or
// kept as the spare when the journal is truncated. The group commit
// (commit.cpp) decides when to rotate; journal.cpp when to truncate.
// Everything through sluice::file, journal_directory and detail::sys.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "journal/filesystems.hpp"
#include "journal/journal_directory.hpp"
#include "journal/state.hpp"
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
// <name>.tmp is created, made to be overwritten in place where `choices`
// says so (a refusal costs one or two ioctls and changes nothing else), its
// blocks reserved, it is given its header and fdatasynced, then renamed and
// the directory fsynced. Where `choices` says not to reserve blocks, the
// file is only sized (sparse). Else the blocks are zeroed by the disk where
// the kernel and the disk can do it without writing them
// (FALLOC_FL_WRITE_ZEROES: Linux 6.17 or later, a disk with an unmapping
// write-zeroes command; a refusal costs one system call), or preallocated
// (where fallocate is unsupported, sized, sparse). With `zero_fill`, a
// segment the disk did not zero is then written with zeros. Throws
// system_error; a leftover .tmp is harmless.
new_segment create_segment(const journal_directory& dir, std::uint64_t number,
                           std::uint64_t first_lsn, std::uint64_t size, bool zero_fill,
                           const filesystem_choices& choices);

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

// Makes `segment` the tail, `offset` where its next record goes, `capacity`
// its size and `zeroed` the end of its written blocks, past which zeros go
// ahead of the records (no salt, no page-end padding), and opens its sync
// descriptors. Throws system_error.
void use_tail(journal_state& state, file segment, std::uint64_t offset, std::uint64_t capacity,
              std::uint64_t zeroed);

// Starts segment `number`, `size` bytes, whose first record is `first_lsn`,
// and makes it the tail in place of the old one (whose descriptors it
// closes): made from the spare if options.reuse_segments allows, no cursor
// is open and the spare has that size, else created (create_segment(),
// which says how its blocks are reserved).
// Throws system_error.
void start_segment(journal_state& state, std::uint64_t number, std::uint64_t first_lsn,
                   std::uint64_t size);

// Rotation, once no other leader is syncing the tail (the caller waits for
// that): makes the tail durable, then starts segment (last number + 1) for a
// batch of `batch_bytes` whose first record is `first_lsn`, of the usual
// size or, for a batch larger than that, one of its own rounded to a page;
// the old tail is sealed once its successor exists. Throws system_error.
void rotate_segment(journal_state& state, std::uint64_t first_lsn, std::uint64_t batch_bytes);

// journal::open, before any record is written: keeps, with
// options.reuse_segments, the newest spare numbered below every recovered
// segment and removes the others (all of them when the journal starts
// afresh, as their lsns may come again); the directory sync that starts or
// continues a segment makes the removals durable. The spare kept must be a
// regular file (EINVAL otherwise). Throws system_error.
void keep_spares(journal_state& state, const recovered_journal& found);

// journal::open of a journal with segments: continues in the newest if it
// ends cleanly, has the current format and room for a seal, else starts a
// fresh one and seals the newest. Either way the recovered records are
// synced first. Throws system_error.
void continue_recovered(journal_state& state, const recovered_journal& found);

// journal::truncate_before(lsn): removes every segment all of whose records
// are below `lsn` (never the tail), oldest first, the newest of them renamed
// to the spare instead with options.reuse_segments and no spare kept, then
// syncs the directory. A failure leaves the segments not yet removed
// listed (no gap in the numbers) and throws system_error.
void remove_segments_before(journal_state& state, std::uint64_t lsn);

// 1 MiB of zeros, static, to write from.
inline constexpr std::size_t zero_block_size = std::size_t{1} << 20;
std::span<const std::byte, zero_block_size> zero_block();

}  // namespace sluice::detail
