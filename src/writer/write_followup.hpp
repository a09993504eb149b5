// What durability and caching ask after each write to the OS, whichever way
// the buffer took (src/writer/flush_strategy.hpp): durability_mode::write_through's
// fdatasync, caching_mode::no_cache's writeback and dropped cache, and the early
// writeback of a writer synced at close.
#pragma once

#include <cstdint>

#include "sluice/writer.hpp"

namespace sluice::detail {

class write_followup {
 public:
  write_followup() = default;  // nothing after a write
  // For a writer with `options` that starts writing at `start`; `replacing`
  // if it replaces its path atomically (and so syncs at close).
  write_followup(const writer_options& options, bool replacing, std::uint64_t start) noexcept;

  // Whether after() has anything to do. io_uring write-behind serves only
  // writers for which it has not: nothing can follow each of its writes.
  bool follows_each_write() const noexcept;

  // After [start, start + length) was written to `target`: write_through
  // syncs it (fdatasync); no_cache starts its writeback and, once two
  // cache_windows are cached, waits for the older one and drops it; a
  // writer synced at close, on the page cache, starts the writeback of
  // every early_writeback_batch written. Throws what those calls throw.
  // Runs on a write-behind thread for the buffers handed to it; the
  // caller's thread runs it only while that thread is idle.
  void after(file& target, std::uint64_t start, std::uint64_t length);

  // At close, after the last write: no_cache drops what is still cached.
  void at_close(file& target);

 private:
  bool writes_back_early() const noexcept;
  void limit_cache(file& target, std::uint64_t start, std::uint64_t length);
  void start_writeback_early(file& target, std::uint64_t end);

  sluice::durability_mode durability_ = sluice::durability_mode::none;
  sluice::caching_mode caching_ = sluice::caching_mode::normal;
  bool syncs_at_close_ = false;
  std::uint64_t cached_from_ = 0;      // no_cache: where the part that may be cached begins
  std::uint64_t written_back_to_ = 0;  // synced at close: where writeback was last started
};

}  // namespace sluice::detail
