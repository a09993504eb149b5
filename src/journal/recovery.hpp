// Recovery: what journal::open finds in an existing journal directory, by the
// rules of docs/journal-format.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "journal/journal_directory.hpp"
#include "sluice/journal.hpp"

namespace sluice::detail {

struct segment_info {
  std::uint64_t number;
  std::uint64_t first_lsn;
  bool reused = false;  // made from a spare (segment_header::reused)
};

struct recovered_journal {
  std::vector<segment_info> segments;  // oldest first; empty for a new journal
  std::uint64_t next_lsn = 1;          // one past the last valid record
  std::uint64_t tail_offset = 0;       // after the last valid record of the newest segment
  std::uint64_t tail_size = 0;         // the newest segment's size
  bool tail_clean = true;              // nothing but zeros after tail_offset
  // If clean: the end of the written blocks that run on from tail_offset
  // (zeros written ahead, zero_fill, zeroed by the disk), as far as the
  // filesystem reports them as data; tail_offset if none.
  std::uint64_t tail_zeroed = 0;
  std::uint32_t tail_version = 0;     // the newest segment's format version
  std::uint32_t tail_salt = 0;        // and its records' salt
  std::vector<std::uint64_t> spares;  // the numbers of the *.journal.spare files
};

// What recovery may change in the journal's directory: a writer's recovery
// removes *.tmp leftovers and, in salvage mode, renames the segments past a
// corruption to *.corrupt, then syncs the directory, and gives a segment
// whose size changed its size back; a read-only journal's changes nothing
// (each call does nothing). Throws system_error.
class recovery_changes {
 public:
  recovery_changes(const journal_directory& dir, bool allowed) : dir_(dir), allowed_(allowed) {}
  void remove_leftover(const std::string& name) const;
  void set_aside(std::uint64_t segment_number);  // renames it to <name>.corrupt
  // Gives segment `number` back the size it was made with (ftruncate,
  // then fdatasync): what was cut off reads as zeros, what was added is gone.
  void restore_size(std::uint64_t segment_number, std::uint64_t size) const;
  void finish() const;  // syncs the directory if any was set aside

 private:
  const journal_directory& dir_;
  bool allowed_;
  bool set_aside_any_ = false;
};

// Lists, validates and scans the segments of `dir`; through `changes`,
// removes *.tmp leftovers and, in salvage mode, renames segments past a
// corruption to *.corrupt.
// Spares are listed, not read. A reused newest segment is never clean (older
// records follow its own): its whole rest is searched for a record proving
// a cut lost durable data (and, under absolute_consistency, for any record
// of its own past the cut, and for zeros to the page end after the last).
// Reads every segment's header, but the records only of the segments
// recovery reaches (none past a cut or a failed read); a reached segment's
// header and records go through one 1 MiB window (one pread per MiB). After
// the newest segment's last record it reads only the ranges SEEK_DATA says
// may hold data (an fadvise and two lseeks a range), not the unwritten rest:
// to check they are zeros and, after a torn tail, to look there for a later
// record proving the cut lost durable data (a few instructions per byte).
// Holds at most two segments open at a time; writes nothing else.
// Throws std::system_error (EINVAL, EPROTONOSUPPORT, EILSEQ or the errno of
// a failed call).
recovered_journal recover_journal(const journal_directory& dir, recovery_mode mode,
                                  recovery_changes changes);

}  // namespace sluice::detail
