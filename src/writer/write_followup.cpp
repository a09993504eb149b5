#include "writer/write_followup.hpp"

namespace sluice::detail {
namespace {

// A writer synced at close starts the writeback of each MiB written: one
// sync_file_range per MiB, and close() waits for at most about that much
// plus what the disk has not caught up with.
constexpr std::uint64_t early_writeback_batch = 1024 * 1024;

}  // namespace

write_followup::write_followup(const writer_options& options, bool replacing,
                               std::uint64_t start) noexcept
    : durability_(options.durability),
      caching_(options.caching),
      syncs_at_close_(replacing || options.durability == durability_mode::data_on_close ||
                      options.durability == durability_mode::all_on_close),
      cached_from_(start),
      written_back_to_(start) {}

bool write_followup::follows_each_write() const noexcept {
  return durability_ == durability_mode::write_through || caching_ == caching_mode::no_cache ||
         writes_back_early();
}

void write_followup::after(file& target, std::uint64_t start, std::uint64_t length) {
  if (durability_ == durability_mode::write_through) target.sync_data();
  if (caching_ == caching_mode::no_cache) limit_cache(target, start, length);
  if (writes_back_early()) start_writeback_early(target, start + length);
}

void write_followup::at_close(file& target) {
  if (caching_ == caching_mode::no_cache) target.drop_cached(cached_from_, 0);  // 0: to the end
}

// A writer whose close() syncs, on the page cache: what close() would wait
// for may as well be on its way to the disk while the rest is made.
bool write_followup::writes_back_early() const noexcept {
  return syncs_at_close_ && caching_ == caching_mode::normal;
}

// no_cache, after [start, start + length) was written: its writeback starts;
// once two windows are cached, the older one is waited for and dropped.
void write_followup::limit_cache(file& target, std::uint64_t start, std::uint64_t length) {
  target.start_writeback(start, length);
  std::uint64_t end = start + length;
  if (end - cached_from_ < 2 * writer_options::cache_window) return;
  std::uint64_t keep_from = end - writer_options::cache_window;
  target.drop_cached(cached_from_, keep_from - cached_from_);
  cached_from_ = keep_from;
}

// Starts the writeback of what was written up to `end` since the last start,
// once that is at least early_writeback_batch: one sync_file_range per batch.
void write_followup::start_writeback_early(file& target, std::uint64_t end) {
  if (end - written_back_to_ < early_writeback_batch) return;
  target.start_writeback(written_back_to_, end - written_back_to_);
  written_back_to_ = end;
}

}  // namespace sluice::detail
