// The C API's journal and its cursors: a sluice::journal behind a handle,
// as thread-safe as the journal itself.
#include "sluice/journal.hpp"

#include <array>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "c/errors.hpp"
#include "sluice/c.h"

namespace c_api = sluice::detail::c_api;

struct sluice_journal {
  sluice::journal log;
};

struct sluice_journal_cursor {
  sluice::journal_cursor records;
};

namespace {

// Records sluice_journal_append_many takes without allocating.
constexpr std::size_t small_batch = 256;

template <class Op>
int with_journal(sluice_journal* journal, std::string_view function, Op&& op) noexcept {
  if (journal == nullptr) return c_api::invalid_argument(function, "the journal is NULL");
  return c_api::guarded([&] { op(journal->log); });
}

int options_of(const sluice_journal_options* given, sluice::journal_options& options) noexcept {
  sluice_journal_options c;
  sluice_journal_options_init(&c);
  if (int error = c_api::copy_options(given, c, "sluice_journal_open")) return error;
  if (c.recovery < SLUICE_RECOVERY_TOLERATE_TORN_TAIL || c.recovery > SLUICE_RECOVERY_SALVAGE)
    return c_api::invalid_argument("sluice_journal_open",
                                   "options.recovery is not a sluice_recovery");
  options.segment_size = c.segment_size;
  options.recovery = static_cast<sluice::recovery_mode>(c.recovery);
  options.zero_fill = c.zero_fill != 0;
  options.concurrent_syncs = c.concurrent_syncs;
  options.reuse_segments = c.reuse_segments != 0;
  options.read_only = c.read_only != 0;
  return 0;
}

std::span<const std::byte> bytes_of(const void* data, size_t size) noexcept {
  return {static_cast<const std::byte*>(data), size};
}

// Appends (and, with `durable`, commits) one record.
int add_record(sluice_journal* journal, const void* data, size_t size, uint64_t* lsn, bool durable,
               std::string_view function) noexcept {
  if (data == nullptr && size != 0) return c_api::invalid_argument(function, "data is NULL");
  return with_journal(journal, function, [&](sluice::journal& log) {
    auto given = durable ? log.write(bytes_of(data, size)) : log.append(bytes_of(data, size));
    if (lsn != nullptr) *lsn = given;
  });
}

int lsn_of(const sluice_journal* journal, uint64_t* lsn, std::string_view function,
           std::uint64_t (sluice::journal::*which)() const) noexcept {
  if (journal == nullptr || lsn == nullptr)
    return c_api::invalid_argument(function, "the journal or lsn is NULL");
  return c_api::guarded([&] { *lsn = (journal->log.*which)(); });
}

}  // namespace

extern "C" {

void sluice_journal_options_init(sluice_journal_options* options) {
  if (options == nullptr) return;
  sluice::journal_options defaults;
  *options = sluice_journal_options{};
  options->size = sizeof(sluice_journal_options);
  options->segment_size = defaults.segment_size;
  options->concurrent_syncs = defaults.concurrent_syncs;
}

int sluice_journal_open(sluice_journal** out, const char* dir,
                        const sluice_journal_options* options) {
  if (out != nullptr) *out = nullptr;  // whatever is refused below
  if (out == nullptr || dir == nullptr)
    return c_api::invalid_argument("sluice_journal_open", "out or dir is NULL");
  sluice::journal_options how;
  if (int error = options_of(options, how)) return error;
  return c_api::guarded([&] { *out = new sluice_journal{sluice::journal::open(dir, how)}; });
}

int sluice_journal_append(sluice_journal* journal, const void* data, size_t size, uint64_t* lsn) {
  return add_record(journal, data, size, lsn, false, "sluice_journal_append");
}

int sluice_journal_write(sluice_journal* journal, const void* data, size_t size, uint64_t* lsn) {
  return add_record(journal, data, size, lsn, true, "sluice_journal_write");
}

int sluice_journal_append_many(sluice_journal* journal, const sluice_bytes* records, size_t count,
                               uint64_t* last_lsn) {
  if (records == nullptr && count != 0)
    return c_api::invalid_argument("sluice_journal_append_many", "records is NULL");
  for (size_t i = 0; i < count; ++i)
    if (records[i].data == nullptr && records[i].size != 0)
      return c_api::invalid_argument("sluice_journal_append_many", "a record's data is NULL");
  return with_journal(journal, "sluice_journal_append_many", [&](sluice::journal& log) {
    // A transaction's records, as spans: on the stack for the common batch,
    // allocated beyond it (an allocation measured 5% of a 100-record batch's
    // instructions).
    std::array<std::span<const std::byte>, small_batch> on_stack;
    std::vector<std::span<const std::byte>> allocated;
    if (count > small_batch) allocated.resize(count);
    std::span<std::span<const std::byte>> batch =
        count > small_batch ? std::span(allocated) : std::span(on_stack).first(count);
    for (size_t i = 0; i < count; ++i) batch[i] = bytes_of(records[i].data, records[i].size);
    auto last = log.append(std::span<const std::span<const std::byte>>(batch));
    if (last_lsn != nullptr) *last_lsn = last;
  });
}

int sluice_journal_commit(sluice_journal* journal, uint64_t lsn) {
  return with_journal(journal, "sluice_journal_commit",
                      [&](sluice::journal& log) { log.commit(lsn); });
}

int sluice_journal_read_from(sluice_journal* journal, uint64_t lsn, sluice_journal_cursor** out) {
  if (out == nullptr) return c_api::invalid_argument("sluice_journal_read_from", "out is NULL");
  *out = nullptr;
  return with_journal(journal, "sluice_journal_read_from", [&](sluice::journal& log) {
    *out = new sluice_journal_cursor{log.read_from(lsn)};
  });
}

int sluice_journal_cursor_next(sluice_journal_cursor* cursor, uint64_t* lsn, const void** data,
                               size_t* size) {
  if (cursor == nullptr || lsn == nullptr || data == nullptr || size == nullptr)
    return c_api::invalid_argument("sluice_journal_cursor_next",
                                   "the cursor, lsn, data or size is NULL");
  *data = nullptr;
  *size = 0;
  return c_api::guarded([&] {
    auto record = cursor->records.next();
    if (!record) return SLUICE_EOF;
    *lsn = record->lsn;
    *data = record->data.data();
    *size = record->data.size();
    return 0;
  });
}

void sluice_journal_cursor_close(sluice_journal_cursor* cursor) { delete cursor; }

int sluice_journal_truncate_before(sluice_journal* journal, uint64_t lsn) {
  return with_journal(journal, "sluice_journal_truncate_before",
                      [&](sluice::journal& log) { log.truncate_before(lsn); });
}

int sluice_journal_first_lsn(const sluice_journal* journal, uint64_t* lsn) {
  return lsn_of(journal, lsn, "sluice_journal_first_lsn", &sluice::journal::first_lsn);
}

int sluice_journal_next_lsn(const sluice_journal* journal, uint64_t* lsn) {
  return lsn_of(journal, lsn, "sluice_journal_next_lsn", &sluice::journal::next_lsn);
}

int sluice_journal_close(sluice_journal* journal) {
  if (journal == nullptr) return 0;
  int error = c_api::guarded([&] { journal->log.close(); });
  delete journal;
  return error;
}

}  // extern "C"
