// sluice::journal: open (with recovery), append, commit, truncate, close.
#include "sluice/journal.hpp"

#include <algorithm>
#include <cerrno>
#include <mutex>
#include <string>
#include <utility>

#include "journal/format.hpp"
#include "journal/journal_directory.hpp"
#include "journal/lock.hpp"
#include "journal/recovery.hpp"
#include "journal/segments.hpp"
#include "journal/state.hpp"
#include "os/error_messages.hpp"
#include "os/path_text.hpp"

namespace sluice {
namespace detail {

void check_not_inherited(const journal_state& state, const char* operation) {
  if (!inherited(state)) return;
  throw std::system_error(EBADF, std::generic_category(),
                          describe(operation, path_text(state.path())) +
                              ": the journal was opened by a parent of this process, before a "
                              "fork(); only that process may use it");
}

}  // namespace detail

namespace {

detail::journal_state& usable(const std::unique_ptr<detail::journal_state>& state,
                              const char* operation) {
  if (!state)
    throw std::system_error(EBADF, std::generic_category(),
                            std::string(detail::message_prefix) + operation + " journal: not open");
  detail::check_not_inherited(*state, operation);
  return *state;
}

// EBADF for a call that would write to a journal opened read_only.
void check_writable(const detail::journal_state& s, const char* operation) {
  if (!s.options.read_only) return;
  throw std::system_error(EBADF, std::generic_category(),
                          detail::describe(operation, detail::path_text(s.path())) +
                              ": the journal was opened read_only");
}

// EINVAL for options journal::open cannot take.
void check_options(const std::filesystem::path& dir, const journal_options& options) {
  if (options.concurrent_syncs < 1 || options.concurrent_syncs > detail::max_syncs_in_flight)
    throw std::system_error(EINVAL, std::generic_category(),
                            detail::describe("open journal", detail::path_text(dir)) +
                                ": concurrent_syncs must be 1 or 2");
  if (options.segment_size < detail::min_segment_size)
    throw std::system_error(EINVAL, std::generic_category(),
                            detail::describe("open journal", detail::path_text(dir)) +
                                ": segment_size below 4096 bytes");
}

// EMSGSIZE for a record beyond max_record_size.
void check_record_size(const detail::journal_state& s, std::size_t size) {
  if (size <= journal::max_record_size) return;
  throw std::system_error(EMSGSIZE, std::generic_category(),
                          detail::describe("append to journal", detail::path_text(s.path())) +
                              ": " + std::to_string(size) + " bytes, more than the 64 MiB limit");
}

// Grows `pending` to hold `more` bytes after its end, doubling at least so
// that appends stay amortized O(1). Throws bad_alloc with `pending` unchanged.
void make_room(std::vector<std::byte>& pending, std::size_t more) {
  std::size_t needed = pending.size() + more;
  if (needed > pending.capacity()) pending.reserve(std::max(needed, 2 * pending.capacity()));
}

}  // namespace

journal::journal() noexcept = default;
journal::journal(std::unique_ptr<detail::journal_state> state) noexcept
    : state_(std::move(state)) {}
journal::journal(journal&&) noexcept = default;
journal& journal::operator=(journal&& other) noexcept {
  if (this != &other) {
    journal discarded(std::move(*this));
    state_ = std::move(other.state_);
  }
  return *this;
}

// Closes; reports a failure only if nobody has seen it: a poisoning failure
// was thrown by the call that met it, and close() throwing it again here
// adds nothing (error.hpp).
journal::~journal() {
  if (!state_) return;
  std::shared_ptr<const detail::journal_directory> dir = state_->dir;  // close() lets state_ go
  bool told = false;
  if (!detail::inherited(*state_)) {  // a child's copy of the mutex may be held forever
    std::lock_guard lock(state_->mutex);
    told = state_->failure != nullptr;
  }
  try {
    close();
  } catch (const std::exception& e) {
    if (!told) detail::report_from_destructor(detail::path_text(dir->path()), e);
  } catch (...) {
    if (!told)
      detail::report_error(std::error_code(EIO, std::generic_category()),
                           "sluice: a journal's destructor failed to close it");
  }
}

journal journal::open(const std::filesystem::path& dir, journal_options options) {
  check_options(dir, options);
  detail::watch_forks();
  if (!options.read_only) detail::make_directory(dir);
  auto directory = std::make_shared<const detail::journal_directory>(dir);
  file lock = detail::lock_journal(*directory, options.read_only ? detail::journal_access::read_only
                                                                 : detail::journal_access::write);
  detail::recovered_journal found = detail::recover_journal(
      *directory, options.recovery, detail::recovery_changes(*directory, !options.read_only));
  auto s = std::make_unique<detail::journal_state>();
  s->dir = std::move(directory);
  s->options = options;
  s->choices = &detail::choices_for_directory(s->dir->native_handle());
  s->lock = std::move(lock);
  s->next_lsn = s->taken_end = s->durable_end = found.next_lsn;
  s->segments = found.segments;
  if (options.read_only) return journal(std::move(s));
  detail::keep_spares(*s, found);
  if (found.segments.empty())
    detail::start_segment(*s, 1, s->next_lsn, options.segment_size);
  else
    detail::continue_recovered(*s, found);
  return journal(std::move(s));
}

std::uint64_t journal::append(std::span<const std::byte> bytes) {
  return append(std::span<const std::span<const std::byte>>(&bytes, 1));
}

std::uint64_t journal::append(std::span<const std::span<const std::byte>> records) {
  detail::journal_state& s = usable(state_, "append to");
  check_writable(s, "append to journal");
  std::size_t framed = 0;
  for (std::span<const std::byte> bytes : records) {
    check_record_size(s, bytes.size());
    framed += static_cast<std::size_t>(detail::framed_size(bytes.size()));
  }
  std::lock_guard lock(s.mutex);
  detail::check_usable(s, "append to journal");
  make_room(s.pending, framed);  // the only step that can fail: before any lsn is taken
  for (std::size_t i = 0; i < records.size(); ++i)  // all but the last: the batch goes on
    detail::encode_record(s.pending, s.next_lsn++, s.durable_end, records[i],
                          i + 1 < records.size());
  return s.next_lsn - 1;
}

void journal::commit(std::uint64_t lsn) {
  detail::journal_state& s = usable(state_, "commit");
  std::unique_lock lock(s.mutex);
  detail::check_usable(s, "commit journal");
  if (lsn >= s.next_lsn)
    throw std::system_error(EINVAL, std::generic_category(),
                            detail::describe("commit journal", detail::path_text(s.path())) +
                                ": lsn " + std::to_string(lsn) + " was not appended yet");
  detail::make_durable(s, lock, lsn, "commit journal");
}

std::uint64_t journal::write(std::span<const std::byte> bytes) {
  std::uint64_t lsn = append(bytes);
  commit(lsn);
  return lsn;
}

void journal::truncate_before(std::uint64_t lsn) {
  detail::journal_state& s = usable(state_, "truncate");
  check_writable(s, "truncate journal");
  detail::remove_segments_before(s, lsn);
}

std::uint64_t journal::next_lsn() const {
  detail::journal_state& s = usable(state_, "query");
  std::lock_guard lock(s.mutex);
  return s.next_lsn;
}

std::uint64_t journal::first_lsn() const {
  detail::journal_state& s = usable(state_, "query");
  std::lock_guard lock(s.mutex);
  return detail::oldest_kept(s);
}

void journal::close() {
  if (!state_) return;
  std::unique_ptr<detail::journal_state> s = std::move(state_);  // closed whatever happens
  // A copy in a child of fork() only lets go of its descriptors: the journal
  // is the parent's, and the lock stays with it.
  if (detail::inherited(*s)) return;
  {
    std::unique_lock lock(s->mutex);
    if (s->failure) std::rethrow_exception(s->failure);  // as it was thrown, like file and writer
    s->returning = 0;  // no committer comes back to a closing journal: none is waited for
    detail::make_durable(*s, lock, s->next_lsn - 1, "close journal");
    lock.lock();
    s->changed.wait(lock,
                    [&] { return detail::syncs_in_flight(*s) == 0; });  // other committers' syncs
  }
  for (file& syncer : s->syncers) syncer.close();
  s->tail.close();
  s->lock.close();  // last: another process may open the journal from here on
}

}  // namespace sluice
