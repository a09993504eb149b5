// Group commit: one leader writes and syncs every pending record while the
// other committers wait for the durable end to pass their lsn.
#include <algorithm>
#include <cerrno>
#include <exception>

#include "journal_dir.hpp"
#include "journal_format.hpp"
#include "journal_state.hpp"
#include "sluice/error.hpp"

namespace sluice::detail {
namespace {

std::uint64_t record_size_at(std::span<const std::byte> batch, std::size_t at) {
  return record_header_size + decode_record_header(batch.data() + at).length;
}

// Bytes of whole records from the front of `records` that fit in `room`.
std::size_t fitting_run(std::span<const std::byte> records, std::uint64_t room) {
  std::size_t run = 0;
  while (run < records.size()) {
    std::uint64_t next = record_size_at(records, run);
    if (run + next > room) break;
    run += static_cast<std::size_t>(next);
  }
  return run;
}

// Makes the tail durable, then continues in a new segment that begins with
// record `first_lsn` of `record_bytes`.
void rotate(journal_state& state, std::uint64_t first_lsn, std::uint64_t record_bytes) {
  state.tail.sync_data();  // a segment's records are durable before the next segment's
  std::uint64_t number;
  {
    std::lock_guard lock(state.mutex);
    number = state.segments.back().number + 1;
  }
  constexpr std::uint64_t page = 4096;
  std::uint64_t needed = (segment_header_size + record_bytes + page - 1) / page * page;
  std::uint64_t size = std::max(state.options.segment_size, needed);
  file next = create_segment(state.dir, number, first_lsn, size, state.options.zero_fill);
  state.tail.close();
  state.tail = std::move(next);
  state.tail_offset = segment_header_size;
  state.tail_capacity = size;
  std::lock_guard lock(state.mutex);
  state.segments.push_back({number, first_lsn});
}

void poison(journal_state& state, int error, const std::string& message) {
  state.poison_errno = error == 0 ? EIO : error;
  state.poison_message = message;
  state.leading = false;
  state.changed.notify_all();
}

}  // namespace

void check_usable(const journal_state& state, const char* operation) {
  if (state.poison_errno != 0)
    throw std::system_error(state.poison_errno, std::generic_category(),
                            describe(operation, state.dir.native()) +
                                " refused: the journal failed earlier (" + state.poison_message +
                                ")");
}

void write_batch(journal_state& state, std::span<const std::byte> batch) {
  std::size_t done = 0;
  while (done < batch.size()) {
    std::span<const std::byte> rest = batch.subspan(done);
    std::size_t run = fitting_run(rest, state.tail_capacity - state.tail_offset);
    if (run == 0) {
      rotate(state, decode_record_header(rest.data()).lsn, record_size_at(rest, 0));
      continue;
    }
    state.tail.write_at(rest.first(run), state.tail_offset);
    state.tail_offset += run;
    done += run;
  }
}

void lead(journal_state& state, std::unique_lock<std::mutex>& lock) {
  state.leading = true;
  std::vector<std::byte> batch = std::move(state.pending);
  state.pending = std::move(state.spare);
  state.pending.clear();
  std::uint64_t end = state.next_lsn;
  lock.unlock();
  try {
    write_batch(state, batch);
    state.tail.sync_data();
  } catch (const std::system_error& e) {
    lock.lock();
    poison(state, e.code().value(), e.what());
    throw;
  } catch (...) {
    lock.lock();
    poison(state, EIO, "an unexpected failure while writing");
    throw;
  }
  lock.lock();
  state.durable_end = end;
  state.leading = false;
  batch.clear();
  state.spare = std::move(batch);
  state.changed.notify_all();
}

}  // namespace sluice::detail
