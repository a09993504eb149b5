// The state behind sluice::journal and the group commit that works on it.
#pragma once

#include <array>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "journal/filesystems.hpp"
#include "journal/journal_directory.hpp"
#include "journal/recovery.hpp"
#include "sluice/file.hpp"
#include "sluice/journal.hpp"

namespace sluice::detail {

// journal_options::concurrent_syncs at most: the next batch may be written
// and synced while the previous one's sync is still running.
inline constexpr unsigned max_syncs_in_flight = 2;

// A committer asleep in make_durable(), woken alone: a leader wakes only the
// committers a change lets go on (those its sync covered, and one to lead the
// next batch), and delivers their verdicts after releasing the journal's
// mutex, so that they do not wake only to queue for it. Shared by the
// committer and its waker: the committer may return as soon as its verdict
// is delivered, while the waker is still notifying it.
struct commit_waiter {
  enum verdict : int {
    asleep,
    durable,  // its record is durable: return
    retry,    // lead, or the journal was poisoned: take the mutex and look again
  };
  explicit commit_waiter(std::uint64_t waiting_for) noexcept : lsn(waiting_for) {}
  const std::uint64_t lsn;  // the committer returns once it is durable
  // Set under the journal's mutex, and read after it is released only by the
  // leader that took this waiter's list off journal_state::to_notify:
  verdict decided = asleep;
  std::shared_ptr<commit_waiter> next_to_notify;  // a list through journal_state::to_notify
  // The committer sleeps on its own mutex, which only it and its waker take.
  std::mutex mutex;
  std::condition_variable wake;
  verdict delivered = asleep;  // guarded by `mutex`
};

// The fork()s this process came out of: a counter that a pthread_atfork
// handler raises in every child (watch_forks() installs it, once). A
// journal remembers the count it was opened under; a different count means
// the calling process is a child holding a copy of the parent's journal.
// forks.cpp on POSIX; forks_win32.cpp on Windows, which has no fork(): the
// count stays 0.
unsigned fork_generation() noexcept;
void watch_forks();

struct journal_state {
  // The journal's directory, held open: every file is found through it. A
  // cursor shares it.
  std::shared_ptr<const journal_directory> dir;
  const std::filesystem::path& path() const noexcept { return dir->path(); }
  journal_options options;
  // How segments are made and written on the journal's filesystem.
  const filesystem_choices* choices = &choices_for(filesystem::other);
  // Its lock file, open and locked (journal_lock.hpp) until close; not open
  // for a read-only journal whose directory has none.
  file lock;
  // fork_generation() when the journal was opened.
  unsigned opened_in = fork_generation();

  std::mutex mutex;
  // A leader finished syncing or failed: rotation and close wait here for the
  // other syncs to end.
  std::condition_variable changed;
  // Guarded by mutex:
  std::vector<std::byte> pending;  // framed records no leader has taken yet
  std::vector<std::byte> spare;    // an emptied batch buffer, kept for reuse
  std::uint64_t next_lsn = 1;      // the lsn the next append gets
  std::uint64_t taken_end = 1;     // every record below it was taken by a leader
  std::uint64_t durable_end = 1;   // every record below it is durable
  bool writing = false;            // a leader is writing its batch; one at a time
  // Committers the newest finished sync let return (its leader among them)
  // that have not committed again since. Once after each sync, the next
  // leader may wait a little for them before taking `pending` (commit.cpp,
  // worth_gathering), so that they join its batch.
  unsigned returning = 0;
  std::uint64_t syncs_done = 0;      // leaders' fdatasyncs finished
  std::uint64_t gathered_after = 0;  // syncs_done when a leader last waited
  bool gathering = false;            // a leader waits for them now
  // The newest finished fdatasync: how long it took, how long before it
  // began the one before it had ended, less the time a leader waited for
  // committers meanwhile (the CPU work between two syncs), and when it
  // ended.
  std::chrono::steady_clock::duration last_sync{};
  std::chrono::steady_clock::duration last_gap{};
  std::chrono::steady_clock::time_point last_sync_end{};
  std::chrono::steady_clock::duration gathered_for{};  // waited since it ended
  // Bit i: a leader holds syncers[i], from taking its batch until its
  // fdatasync returned; at most options.concurrent_syncs bits are set.
  unsigned busy_syncers = 0;
  std::vector<std::shared_ptr<commit_waiter>> waiters;  // committers asleep, in no order
  std::shared_ptr<commit_waiter> to_notify;             // given a verdict, to notify once unlocked
  // The failure that poisoned the journal, null if none: the sticky error
  // of os/sticky_error.hpp, thrown again by close() and named by every
  // refusal.
  std::exception_ptr failure;
  std::vector<segment_info> segments;
  // With options.reuse_segments: the spare the next segment is made from,
  // if any (its number, below every live segment's).
  std::optional<std::uint64_t> spare_segment;
  // Held by truncate_before() throughout: one at a time, so that the
  // segments a failed one gives back are still the oldest.
  std::mutex truncating;
  // Copied by every cursor: while one lives, no spare is reused, as the
  // cursor may still be reading the spare's records.
  std::shared_ptr<const int> cursors = std::make_shared<const int>(0);

  // Used only by the writing leader, and by open and close; replaced only
  // while no other leader is syncing:
  file tail;  // the newest segment, for writing (and syncing when rotating)
  // More descriptors of it, one per sync slot (options.concurrent_syncs of
  // them are open), each used only by the leader holding its slot. Each is
  // its own open file description: Linux reports a writeback error once per
  // description, so two syncs sharing one could let the second return
  // success for data that was lost.
  std::array<file, max_syncs_in_flight> syncers;
  std::uint64_t tail_offset = 0;    // where its next record goes
  std::uint64_t tail_capacity = 0;  // its size
  // Every block of it before this was written (records or zeros), so its
  // extents are no longer unwritten ones.
  std::uint64_t tail_zeroed = 0;
  // Non-zero if it was made from a spare: its records' checksums carry this
  // salt (segment_header::salt).
  std::uint32_t tail_salt = 0;
  // Made from a spare or zeroed by the disk: all its blocks are written, but
  // none of its pages is cached, so each batch is padded with zeros to the
  // page end (a write that ends inside an uncached page would read that page
  // first).
  bool tail_uncached = false;
};

// With the mutex held: the oldest lsn kept, the first segment's first (or
// the next lsn, in a read-only journal that has no segment).
inline std::uint64_t oldest_kept(const journal_state& state) {
  return state.segments.empty() ? state.next_lsn : state.segments.front().first_lsn;
}

// Leaders between taking their batch and the end of their fdatasync.
inline int syncs_in_flight(const journal_state& state) { return std::popcount(state.busy_syncers); }

// With `lock` held: returns, with `lock` released, once every record up to
// `lsn` is durable, leading whenever its record still waits in `pending`, no
// leader is writing and a sync slot is free; else waiting for the leaders.
// Throws the poisoning error (naming `operation`) if the journal is or
// becomes poisoned before then.
void make_durable(journal_state& state, std::unique_lock<std::mutex>& lock, std::uint64_t lsn,
                  const char* operation);

// With the mutex held: refuses `operation` (sticky_error.hpp's refusal,
// naming the failure) if the journal is poisoned.
void check_usable(const journal_state& state, const char* operation);

// Whether the calling process is a child of the one that opened the journal.
inline bool inherited(const journal_state& state) noexcept {
  return state.opened_in != fork_generation();
}
// EBADF if it is: a child of fork() must not write, commit or read through
// its copy of the parent's journal (their records would overwrite each
// other's); it may only let it go (close() or the destructor, which close
// its descriptors and nothing else). One relaxed atomic load.
void check_not_inherited(const journal_state& state, const char* operation);

}  // namespace sluice::detail
