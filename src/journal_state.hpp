// The state behind sluice::journal and the group commit that works on it.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include "journal_recovery.hpp"
#include "sluice/file.hpp"
#include "sluice/journal.hpp"

namespace sluice::detail {

struct journal_state {
  std::filesystem::path dir;
  journal_options options;

  std::mutex mutex;
  std::condition_variable changed;  // durable_end moved, a leader finished, or poisoned
  // Guarded by mutex:
  std::vector<std::byte> pending;  // framed records no leader has taken yet
  std::vector<std::byte> spare;    // an emptied batch buffer, kept for reuse
  std::uint64_t next_lsn = 1;      // the lsn the next append gets
  std::uint64_t durable_end = 1;   // every record below it is durable
  bool leading = false;            // a thread is writing and syncing a batch
  int poison_errno = 0;            // errno of the failure that poisoned the journal
  std::string poison_message;      // its what()
  std::vector<segment_info> segments;

  // Used only by the leading thread (or by open and close):
  file tail;                        // the newest segment
  std::uint64_t tail_offset = 0;    // where its next record goes
  std::uint64_t tail_capacity = 0;  // its size
};

// Throws the poisoning error if the journal is poisoned.
void check_usable(const journal_state& state, const char* operation);

// Called with `lock` held and no leader: takes every pending record, writes
// and fdatasyncs them with the lock released, and publishes the new durable
// end. On failure poisons the journal, wakes every waiter and rethrows.
void lead(journal_state& state, std::unique_lock<std::mutex>& lock);

// Writes the framed records of `batch` after the tail, moving to new
// segments as they fill. No sync of the last segment. Throws on failure.
void write_batch(journal_state& state, std::span<const std::byte> batch);

}  // namespace sluice::detail
