// Group commit: a leader writes every pending record and fdatasyncs them
// while the other committers wait for the durable end to pass their lsn.
// Once its write is done the next leader may write, so two syncs can be in
// flight (journal_state.hpp says why each has its own descriptor).
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <exception>
#include <memory>
#include <new>
#include <utility>

#include "journal/format.hpp"
#include "journal/segments.hpp"
#include "journal/state.hpp"
#include "os/error_messages.hpp"
#include "os/path_text.hpp"
#include "os/sticky_error.hpp"

namespace sluice::detail {
namespace {

// Bytes of whole batches from the front of `records` that fit in `room`: a
// batch never spans two segments, so that recovery keeps all of it or none.
std::size_t fitting_run(std::span<const std::byte> records, std::uint64_t room) {
  if (records.size() <= room) return records.size();  // whole batches: appends are
  std::size_t run = 0;
  for (std::size_t at = 0; at < records.size();) {
    record_header header = decode_record_header(records.data() + at);
    at += static_cast<std::size_t>(framed_size(header.length));
    if (at > room) break;
    if (!header.continued) run = at;
  }
  return run;
}

// Waits until no other leader is in fdatasync on the tail. Throws if the
// journal was poisoned meanwhile.
void wait_for_other_syncs(journal_state& state) {
  std::unique_lock lock(state.mutex);
  state.changed.wait(lock, [&] { return syncs_in_flight(state) == 1 || state.failure; });
  check_usable(state, "commit journal");
}

// With the lock held: whether a committer of `lsn` may lead now: its record
// waits in `pending`, no leader is writing or gathering and a sync slot is
// free.
bool may_lead(const journal_state& state, std::uint64_t lsn) {
  return lsn >= state.taken_end && !state.writing && !state.gathering &&
         syncs_in_flight(state) < static_cast<int>(state.options.concurrent_syncs);
}

// The share of the newest fdatasync's time a leader waits at most for the
// committers it let return: long enough for threads woken on a busy CPU to
// append again, short next to the sync their records then share.
constexpr int gather_share = 4;
// How many times longer than the CPU work between two syncs the newest sync
// must have taken for a leader to wait.
constexpr int gather_when_sync_exceeds_gap = 2;

// With the lock held, about to lead: whether to wait for the committers the
// newest sync let return, once per sync. Without the wait, the committers
// of a journal whose threads commit in a loop split into two halves that
// take turns: one half syncs while the other appends, and each sync carries
// half of them. Where syncs are slow next to the work between them, one
// sync for all pays; where they are not, the halves keep the disk and the
// CPU busy at once, and waiting would idle the disk (docs/performance.md).
bool worth_gathering(const journal_state& state) {
  return state.returning > 0 && state.gathered_after != state.syncs_done &&
         state.last_sync > gather_when_sync_exceeds_gap * state.last_gap;
}

// With `lock` held: waits until the committers the newest sync let return
// have committed again, for at most 1/gather_share of that sync's time, or
// until the journal is poisoned. Meanwhile no one else leads: committers
// that arrive sleep until a leader's batch covers them.
void gather_returning(journal_state& state, std::unique_lock<std::mutex>& lock) {
  state.gathering = true;
  state.gathered_after = state.syncs_done;
  auto began = std::chrono::steady_clock::now();
  state.changed.wait_until(lock, began + state.last_sync / gather_share,
                           [&] { return state.returning == 0 || state.failure; });
  state.gathered_for += std::chrono::steady_clock::now() - began;
  state.gathering = false;
}

// With the lock held: a committer arrived; if it is the last of those the
// newest sync let return, the leader waiting for them may go on.
void count_arrival(journal_state& state) {
  if (state.returning == 0) return;
  if (--state.returning == 0 && state.gathering) state.changed.notify_all();
}

// With the lock held: gives a verdict to the committers the state now lets
// go on, and queues them on `to_notify`: those durable, the first that may
// lead (it takes every pending record), and every one if poisoned. The
// others sleep on.
void wake_committers(journal_state& state) noexcept {
  bool leader_woken = false;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < state.waiters.size(); ++i) {
    std::shared_ptr<commit_waiter>& waiter = state.waiters[i];
    bool durable = waiter->lsn < state.durable_end;
    bool leads = !durable && !leader_woken && may_lead(state, waiter->lsn);
    if (!durable && !leads && !state.failure) {
      if (kept != i) state.waiters[kept] = std::move(waiter);
      ++kept;
      continue;
    }
    leader_woken = leader_woken || leads;
    if (durable) ++state.returning;
    waiter->decided = durable ? commit_waiter::durable : commit_waiter::retry;
    waiter->next_to_notify = std::move(state.to_notify);
    state.to_notify = std::move(waiter);
  }
  state.waiters.resize(kept);
}

// Releases `lock`, then wakes the committers queued while it was held.
void unlock_and_notify(journal_state& state, std::unique_lock<std::mutex>& lock) noexcept {
  std::shared_ptr<commit_waiter> next = std::move(state.to_notify);
  lock.unlock();
  while (next) {
    {
      std::lock_guard delivering(next->mutex);
      next->delivered = next->decided;
    }
    next->wake.notify_one();
    next = std::move(next->next_to_notify);
  }
}

// With the lock held: the first failure poisons and wakes every committer;
// later ones (another leader's) add nothing.
void poison(journal_state& state, std::exception_ptr failure) noexcept {
  if (state.failure) return;
  stick(state.failure, std::move(failure));
  wake_committers(state);
}

// The failure a leader met that is not a std::system_error (std::bad_alloc,
// say), as the std::system_error with `error` that poisons the journal:
// "sluice: commit journal '<dir>': <what>". If even that finds no memory,
// the failure itself (its errno is then ENOMEM, see code_of()).
std::exception_ptr as_system_error(const journal_state& state, int error,
                                   const char* what) noexcept {
  try {
    return std::make_exception_ptr(
        std::system_error(error, std::generic_category(),
                          describe("commit journal", path_text(state.path())) + ": " + what));
  } catch (...) {
    return std::current_exception();
  }
}

// With `lock` held: sleeps until a leader gives this committer of `lsn` its
// verdict. Returns true, with `lock` released, if its record is durable;
// false, with `lock` held, if it must look again. Throws bad_alloc.
bool sleep_until_woken(journal_state& state, std::unique_lock<std::mutex>& lock,
                       std::uint64_t lsn) {
  auto me = std::make_shared<commit_waiter>(lsn);
  state.waiters.push_back(me);
  lock.unlock();
  std::unique_lock sleeping(me->mutex);
  me->wake.wait(sleeping, [&] { return me->delivered != commit_waiter::asleep; });
  if (me->delivered == commit_waiter::durable) return true;
  lock.lock();
  return false;
}

// With the lock held: takes a sync slot and the pending records.
unsigned start_leading(journal_state& state, std::vector<std::byte>& batch) {
  state.writing = true;
  unsigned slot = (state.busy_syncers & 1u) ? 1 : 0;
  state.busy_syncers |= 1u << slot;
  batch = std::move(state.pending);
  state.pending = std::move(state.spare);
  state.pending.clear();
  state.taken_end = state.next_lsn;
  return slot;
}

// With the lock held: gives the slot back (and the writing turn if `writing`
// says it is still held) and queues whoever that lets go on.
void stop_leading(journal_state& state, unsigned slot, bool writing) {
  if (writing) state.writing = false;
  state.busy_syncers &= ~(1u << slot);
  state.changed.notify_all();
  wake_committers(state);
}

// With the lock held, after a leader's fdatasync ran from `began` to
// `ended`: keeps what worth_gathering() weighs, and counts the leader among
// the committers it lets return (wake_committers counts the others).
void note_sync(journal_state& state, std::chrono::steady_clock::time_point began,
               std::chrono::steady_clock::time_point ended) {
  state.last_gap = std::max(began - state.last_sync_end - state.gathered_for,
                            std::chrono::steady_clock::duration{});
  state.gathered_for = {};
  state.last_sync = ended - began;
  state.last_sync_end = ended;
  ++state.syncs_done;
  state.returning = 1;
}

// The zeros to write after `run` bytes of records at the tail's offset:
// none while they end before the tail's zeroed end; once they pass it, the
// filesystem's zeros_ahead past them (filesystems.hpp; at most to the
// segment's end). Written before the batch's fdatasync, they let that sync
// record the blocks as written, so the next commits into them overwrite
// written blocks and their fdatasync has no extent state to record. In a
// tail whose blocks are all written but not cached: zeros to the page end,
// always.
std::span<const std::byte> zeros_after(const journal_state& state, std::size_t run) {
  std::uint64_t end = state.tail_offset + run;
  if (state.tail_uncached) {  // to the page end
    std::uint64_t to = std::min(state.tail_capacity, page_end(end));
    return zero_block().first(static_cast<std::size_t>(to - end));
  }
  if (end <= state.tail_zeroed) return {};
  std::uint64_t to = std::min(state.tail_capacity, end + state.choices->zeros_ahead);
  return zero_block().first(static_cast<std::size_t>(to - end));
}

// Writes the framed records of `batch` after the tail, moving to new
// segments as they fill; salts the checksums of those that land in a
// reused segment. No sync of the last segment. Throws on failure.
void write_batch(journal_state& state, std::span<std::byte> batch) {
  std::size_t done = 0;
  while (done < batch.size()) {
    std::span<std::byte> rest = batch.subspan(done);
    std::uint64_t end = state.tail_capacity - seal_size;  // the seal's room stays free
    std::size_t run = fitting_run(rest, end > state.tail_offset ? end - state.tail_offset : 0);
    if (run == 0) {
      wait_for_other_syncs(state);  // they use the tail's descriptors
      rotate_segment(state, decode_record_header(rest.data()).lsn, first_batch_size(rest));
      continue;
    }
    if (state.tail_salt != 0) salt_records(rest.first(run), state.tail_salt);
    std::span<const std::byte> zeros = zeros_after(state, run);
    std::span<const std::byte> pieces[] = {rest.first(run), zeros};
    state.tail.seek(state.tail_offset);
    state.tail.write_gather(pieces);  // one pwritev
    state.tail_zeroed = std::max(state.tail_zeroed, state.tail_offset + run + zeros.size());
    state.tail_offset += run;
    done += run;
  }
}

// A leader's write or sync failed with `error`: gives back its slot (and
// the writing turn if `writing`), poisons the journal and wakes everyone.
// Returns with `lock` released.
void give_up_leading(journal_state& state, std::unique_lock<std::mutex>& lock, unsigned slot,
                     bool writing, std::exception_ptr failure) noexcept {
  if (!lock.owns_lock()) lock.lock();
  stop_leading(state, slot, writing);
  poison(state, std::move(failure));
  unlock_and_notify(state, lock);
}

// Called with `lock` held when make_durable() says so: takes every pending
// record, writes them with the lock released, lets the next leader write
// while it fdatasyncs them, publishes the new durable end and returns with
// `lock` released. On failure poisons the journal, wakes every committer
// and rethrows.
void lead(journal_state& state, std::unique_lock<std::mutex>& lock) {
  std::vector<std::byte> batch;
  unsigned slot = start_leading(state, batch);
  std::uint64_t end = state.taken_end;
  bool writing = true;
  std::chrono::steady_clock::time_point sync_began, sync_ended;
  lock.unlock();
  try {
    write_batch(state, batch);
    lock.lock();
    state.writing = writing = false;  // the next leader may write while this one syncs
    wake_committers(state);
    file& syncing = state.syncers[slot];  // stays put: rotation waits for this sync
    sync_began = std::chrono::steady_clock::now();
    unlock_and_notify(state, lock);
    syncing.sync_data();
    sync_ended = std::chrono::steady_clock::now();
  } catch (const std::system_error&) {
    give_up_leading(state, lock, slot, writing, std::current_exception());
    throw;
  } catch (const std::bad_alloc&) {
    give_up_leading(state, lock, slot, writing,
                    as_system_error(state, ENOMEM, "out of memory while writing records"));
    throw;
  } catch (...) {
    give_up_leading(state, lock, slot, writing,
                    as_system_error(state, EIO, "an unexpected failure while writing records"));
    throw;
  }
  lock.lock();
  // This sync covers every batch written before this one: the writes
  // happened before it began.
  state.durable_end = std::max(state.durable_end, end);
  note_sync(state, sync_began, sync_ended);
  stop_leading(state, slot, false);
  batch.clear();
  if (state.spare.capacity() < batch.capacity()) state.spare = std::move(batch);
  unlock_and_notify(state, lock);
}

}  // namespace

void check_usable(const journal_state& state, const char* operation) {
  if (state.failure) refuse(state.failure, operation, path_text(state.path()));
}

void make_durable(journal_state& state, std::unique_lock<std::mutex>& lock, std::uint64_t lsn,
                  const char* operation) {
  count_arrival(state);
  // Durable first, poisoned second: a sync that succeeded covers its batch
  // even if another leader failed meanwhile.
  while (state.durable_end <= lsn) {
    check_usable(state, operation);
    if (may_lead(state, lsn)) {
      if (worth_gathering(state)) {
        gather_returning(state, lock);
        continue;  // poisoned meanwhile, or (with two syncs) another sync ended
      }
      lead(state, lock);  // its batch holds `lsn`
      return;
    }
    if (sleep_until_woken(state, lock, lsn)) return;
  }
  lock.unlock();
}

}  // namespace sluice::detail
