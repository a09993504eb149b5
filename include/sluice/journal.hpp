// sluice/journal.hpp - sluice::journal, a durable log of records with group
// commit and crash recovery. The bytes on disk and the recovery rules are in
// docs/journal-format.md.
//
// A journal lives in one directory of segment files. append() gives each
// record the next log sequence number (lsn: 1, 2, 3, ...) and keeps it in
// memory; commit(lsn) returns once every record up to lsn is durable. Many
// threads may append and commit at once: one of the committers (the leader)
// writes every record appended so far with one pwritev per segment and makes
// them durable with one fdatasync, and every committer whose lsn that covers
// returns without I/O of its own (group commit); with
// journal_options::concurrent_syncs = 2, the next leader may write and sync
// the records appended since while that sync still runs. A lone committer
// pays one pwritev and one fdatasync. Where an fdatasync takes more than
// twice as long as the work between two of them (a slow disk, btrfs), the
// next leader first waits, at most a quarter of that fdatasync's time, for
// the committers it let return to commit again, so that threads committing
// in a loop share one sync rather than taking turns in two halves.
//
// Errors: std::system_error whose code() is the errno and whose what() names
// the operation, the file and where it matters the offset. A failed write or
// sync poisons the journal: that call throws it, and every later one is
// refused with its errno, naming the call, the directory and the failure
// (sluice: commit journal '/var/lib/app/log' refused after an earlier
// failure: fdatasync '/var/lib/app/log/...': Input/output error); an
// fdatasync is never retried (Linux may have dropped the pages it could not
// write). close() throws the failure itself and lets the directory go;
// reopening the directory runs recovery again.
//
// Example:
//   auto log = sluice::journal::open("/var/lib/app/log");
//   for (auto record : log.read_from(1)) replay(record.lsn, record.data);
//   std::uint64_t lsn = log.append(std::as_bytes(std::span(change)));
//   log.commit(lsn);                       // durable from here on
//   log.commit(log.append(pieces));  // several records at once (spans of bytes)
//   log.write(std::as_bytes(std::span(other)));  // append + commit
//   log.truncate_before(checkpoint_lsn);   // drop old segments
//   log.close();
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iterator>
#include <memory>
#include <optional>
#include <span>

namespace sluice {

// What journal::open does with damage it finds (journal_options::recovery).
// The rules in full: docs/journal-format.md#journal_optionsrecovery
enum class recovery_mode {
  // The default. A torn tail (the never-committed end of a crash) is cut off;
  // corruption before data that had been made durable throws EILSEQ naming
  // the segment and the offset.
  tolerate_torn_tail,
  // Any damage throws EILSEQ, a torn tail included: for journals that were
  // closed cleanly or copied.
  absolute_consistency,
  // Keeps the longest valid prefix and continues after it: corruption in the
  // middle cuts the log there (later segments are renamed *.corrupt).
  salvage,
};

// How journal::open opens a journal and how it writes. Each field says what
// it does, its default, its cost and how it fails; docs/journal-format.md
// has the detail, docs/performance.md the figures.
struct journal_options {
  // Bytes preallocated per segment file. The journal moves to a new segment
  // when the next batch (one append() call) does not fit; a batch larger
  // than this gets a segment of its own.
  // Default: 64 MiB.
  // Cost: each new segment is reserved whole when created (see zero_fill);
  // on tmpfs it is only sized, its memory taken as records land.
  // Failure: below 4 KiB, open() throws EINVAL.
  std::uint64_t segment_size = std::uint64_t{64} << 20;

  // What open() does with damage it finds (recovery_mode above).
  // Default: recovery_mode::tolerate_torn_tail.
  recovery_mode recovery = recovery_mode::tolerate_torn_tail;

  // Whether a new segment is written full of zeros when created (segment_size
  // bytes of pwritev, in 1 MiB pieces, before its fdatasync), so that no
  // commit into it carries zeros or records extent state.
  // Default: false; then the segment is reserved with fallocate, and the
  // commit whose records pass the zeros written so far carries 256 KiB more
  // (ext4, XFS and filesystems without a row of their own; on btrfs and
  // tmpfs, no zeros ahead: docs/journal-format.md#writing).
  // Cost: true, that write at each segment's creation; false, a longer commit
  // once per 256 KiB. Neither writes zeros where the disk zeroes blocks
  // itself (FALLOC_FL_WRITE_ZEROES). Detail: docs/journal-format.md#writing
  // Measured: docs/performance.md#the-journal-zeros-ahead-of-the-records
  bool zero_fill = false;

  // fdatasyncs that may run at once, 1 or 2. With 1, a committer whose
  // record missed the batch being synced waits for that sync, then leads the
  // next one; with 2, it writes and syncs its batch at once, beside the
  // first sync, on a descriptor of its own.
  // Default: 1.
  // Cost: 2 pays where an fdatasync takes long next to the CPU work of a
  // batch (slow flushes, busy CPUs), and costs more syncs of smaller batches
  // where it does not; one more descriptor per sync stays open on the newest
  // segment.
  // Failure: any other value makes open() throw EINVAL.
  // Measured: docs/performance.md#the-journal-one-sync-at-a-time-by-default
  unsigned concurrent_syncs = 1;

  // Whether truncate_before() keeps one of the segments it drops as a spare
  // (<number>.journal.spare), from which the next new segment is made: its
  // blocks, already written, are overwritten in place, so commits into it
  // carry no zeros and no extent state.
  // Default: false; then truncate_before() removes the segments it drops.
  // Cost: a reopened journal whose newest segment was reused searches that
  // segment's whole rest for damage, then continues in a new segment. A spare
  // is not reused while a cursor from read_from() is alive. Detail:
  // docs/journal-format.md#reusing-segments-journal_optionsreuse_segments
  // Measured: docs/performance.md#the-journal-reusing-the-segments-truncate_before-drops
  bool reuse_segments = false;

  // Whether the journal is opened for reading only: recovery checks the
  // segments as `recovery` says but changes nothing on disk, and read_from()
  // returns the records it found (after a crash of the last writer, they may
  // not be durable yet, until a writer opens the journal).
  // Default: false, for writing.
  // Failure: append(), write() and truncate_before() throw EBADF; the
  // directory must exist. Any number of read-only journals may be open at
  // once, but never beside a writer (see journal::open). Detail:
  // docs/journal-format.md#one-writer-at-a-time
  bool read_only = false;
};

// One record read back: `data` stays valid until the cursor moves on.
struct journal_record {
  std::uint64_t lsn;
  std::span<const std::byte> data;
};

namespace detail {
struct journal_state;
struct cursor_state;
}  // namespace detail

// The records from one lsn to the last one durable when read_from() was
// called, in order. Reads each record with a buffered pread (1 MiB at a time)
// and checks its checksum again; damage throws EILSEQ naming segment and
// offset. Segments removed by truncate_before() after read_from() throw ENOENT
// when reached. Move-only; not thread-safe (one cursor per thread).
class journal_cursor {
 public:
  journal_cursor(journal_cursor&&) noexcept;
  journal_cursor& operator=(journal_cursor&&) noexcept;
  ~journal_cursor();

  // The next record, or nothing at the end.
  std::optional<journal_record> next();

  // Input iteration, for range-for.
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = journal_record;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    explicit iterator(journal_cursor* cursor) : cursor_(cursor) { ++*this; }
    const journal_record& operator*() const { return *current_; }
    const journal_record* operator->() const { return &*current_; }
    iterator& operator++() {
      current_ = cursor_->next();
      if (!current_) cursor_ = nullptr;
      return *this;
    }
    void operator++(int) { ++*this; }
    bool operator==(const iterator& other) const { return cursor_ == other.cursor_; }

   private:
    journal_cursor* cursor_ = nullptr;
    std::optional<journal_record> current_;
  };
  iterator begin() { return iterator(this); }
  iterator end() { return iterator(); }

 private:
  friend class journal;  // journal::read_from makes cursors
  explicit journal_cursor(std::unique_ptr<detail::cursor_state> state) noexcept;

  std::unique_ptr<detail::cursor_state> state_;
};

class journal {
 public:
  // The largest payload append() takes: 64 MiB.
  static constexpr std::size_t max_record_size = std::size_t{64} << 20;

  // Opens the journal in `dir`: creates the directory (0700: its owner's
  // only) and syncs its parent if missing, starts a new journal in an empty
  // one, else recovers the segments there by `options.recovery` and
  // fdatasyncs the newest, so every record read_from() returns is durable.
  // Holds the directory open until close() and finds every file through
  // it: renaming the directory meanwhile changes nothing of where the
  // journal writes. Cost: reads every segment once.
  //
  // One writer at a time: the journal takes a flock on the directory's
  // journal.lock (a writer creates it) until close(), exclusively, or
  // shared with options.read_only. An open that would share the directory
  // with a writer (a second writer, or a reader beside one, or a writer
  // beside readers), in this process or another, fails at once with
  // EWOULDBLOCK naming the directory and, where /proc/locks tells it, the
  // holder's pid. The lock ends with the process that holds it, however it
  // ends: a crash leaves nothing to clean up. In a child of fork(), every
  // call on a journal the parent opened throws EBADF; its close() and
  // destructor only close the child's descriptors.
  //
  // Throws std::system_error: EWOULDBLOCK as above; EINVAL for a directory
  // holding other files ("not a journal directory") or a segment with a
  // wrong magic, checksum or length, or a segment, spare or lock file that
  // is not a regular file (a FIFO is refused without waiting for a writer;
  // a symbolic link is refused too); EPROTONOSUPPORT for a newer format;
  // EILSEQ for corruption, a segment not of the size it was made with, or
  // a missing newest segment.
  static journal open(const std::filesystem::path& dir, journal_options options = {});

  journal() noexcept;  // not open
  journal(journal&&) noexcept;
  journal& operator=(journal&&) noexcept;
  journal(const journal&) = delete;
  journal& operator=(const journal&) = delete;
  // Does what close() does; an error goes to the error handler (error.hpp):
  // "sluice: close '<dir>' in its destructor: <what failed>", unless it is a
  // poisoning failure a call threw already.
  ~journal();

  // Gives `bytes` the next lsn and returns it. Copies the bytes once into
  // memory; no system call; not durable until commit(). Throws EMSGSIZE
  // beyond max_record_size, std::bad_alloc if the copy finds no memory
  // (either way nothing is appended and no lsn is used), or a poisoning
  // error.
  std::uint64_t append(std::span<const std::byte> bytes);

  // Appends each of `records`, in order, with consecutive lsns, under one
  // take of the lock (a transaction's records, like a WriteBatch); returns
  // the last lsn (next_lsn() - 1 if `records` is empty). All or nothing
  // after a crash: recovery keeps every record of the batch or none (the
  // batch never spans two segments, and its records are marked so that a
  // batch whose end was lost is cut whole). The same errors as append(),
  // checked for every record before any is appended.
  std::uint64_t append(std::span<const std::span<const std::byte>> records);

  // Returns once every record with an lsn up to `lsn` is durable. Either
  // returns at once (already durable), waits for the sync that covers it,
  // or leads: one pwritev per segment touched, one fdatasync (and, at a segment
  // change, the creation of the next segment). EINVAL for an lsn not yet
  // appended; a failed write or sync poisons the journal and throws.
  // std::bad_alloc if memory runs out while it waits: the record may still
  // become durable through another committer's sync.
  void commit(std::uint64_t lsn);

  // append(bytes), then commit() of it; returns its lsn.
  std::uint64_t write(std::span<const std::byte> bytes);

  // The records from `lsn` on that are durable now (see journal_cursor).
  // ERANGE if `lsn` is older than the oldest record kept (truncate_before).
  journal_cursor read_from(std::uint64_t lsn);

  // Removes every segment whose records all have lsns below `lsn` (never the
  // newest segment), then fsyncs the directory. One unlink per segment; with
  // journal_options::reuse_segments, one of them is renamed to the spare
  // instead when there is none.
  void truncate_before(std::uint64_t lsn);

  // The lsn the next append() gets. O(1), takes the lock.
  std::uint64_t next_lsn() const;
  // The oldest lsn still kept. O(1), takes the lock.
  std::uint64_t first_lsn() const;

  // Commits everything appended, then closes the segment files, reporting
  // every error. After a poisoning failure it throws that failure again (the
  // same std::system_error the failed call threw), as file::close() and
  // writer::close() do, and closes the files without committing. Either way
  // the journal is closed afterwards: later calls throw EBADF, a later
  // close() does nothing. Must not run while another thread uses the
  // journal.
  void close();

  bool is_open() const noexcept { return state_ != nullptr; }

 private:
  explicit journal(std::unique_ptr<detail::journal_state> state) noexcept;
  std::unique_ptr<detail::journal_state> state_;
};

}  // namespace sluice
