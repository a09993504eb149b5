// sluice-bench "journal": transactions of 100 records of a 16-byte key and a
// 100-byte value, each durable before its committer starts the next. The
// one-thread limit is write(2) + fdatasync per transaction; sluice::journal
// runs with 1, 4 and 16 committing threads (group commit shares the syncs),
// 16 with two syncs at once (journal_options::concurrent_syncs), and 16
// into segments made from spares, as in a journal that truncates
// (journal_options::reuse_segments; the journal is prepared untimed); the
// C API from C (<sluice/c.h>) with 1 and 16 threads; RocksDB, LevelDB and
// SQLite when sluice-bench was built with them. MB/s over 0.0116 is
// transactions per second (open and close included); the "after close"
// column gives the commit loop's own transactions/s, records/s and the
// measured p50/p99 commit latency.
#include <algorithm>
#include <filesystem>
#include <sluice/journal.hpp>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/io.hpp"
#include "core/units.hpp"
#include "peers/c_rows.hpp"
#include "peers/journal_peers.hpp"
#include "scenarios/journal_load.hpp"
#include "scenarios/scenarios.hpp"

namespace sluice::bench {
namespace {

constexpr std::uint64_t mib = 1 << 20;

// What a transaction takes in a segment at most: its records with their
// headers (docs/journal-format.md).
constexpr std::uint64_t segment_bytes_per_transaction = journal_transaction_size + 2800;

std::string log_file(const char* dir) { return std::string(dir) + "/log"; }

// The limit: one thread, the transaction's bytes in one write(2), then fdatasync.
void run_raw(const char* dir, const journal_work& work, journal_log& log) {
  std::filesystem::create_directory(dir);
  raw_file out(log_file(dir).c_str());
  std::vector<char> bytes(journal_transaction_size);
  auto commit = [&](std::size_t t) {
    for (std::size_t r = 0; r < journal_records; ++r)
      work.record(t, r, bytes.data() + r * journal_record_size);
    commit_raw(out, bytes.data(), bytes.size());
  };
  run_transactions(work, 1, commit, log);
  out.finish(false);
}

void check_raw(const char* dir, const journal_work& work) {
  std::vector<char> bytes(work.transactions * journal_transaction_size);
  std::FILE* in = std::fopen(log_file(dir).c_str(), "rb");
  if (!in) throw std::runtime_error("read back: cannot open " + log_file(dir));
  std::size_t got = std::fread(bytes.data(), 1, bytes.size(), in);
  bool longer = std::fgetc(in) != EOF;
  std::fclose(in);
  if (got != bytes.size() || longer) throw std::runtime_error("read back: wrong file size");
  record_check check(work);
  for (std::size_t at = 0; at < bytes.size(); at += journal_record_size)
    check.add({bytes.data() + at, journal_key_size},
              {bytes.data() + at + journal_key_size, journal_value_size});
  check.finish();
}

// Each transaction: its 100 records appended at once (as the peers' one
// WriteBatch), then commit of the last lsn.
void run_sluice(const char* dir, const journal_work& work, int threads,
                const journal_options& options, journal_log& log) {
  auto journal = sluice::journal::open(dir, options);
  auto commit = [&](std::size_t t) {
    char records[journal_records][journal_record_size];
    std::span<const std::byte> batch[journal_records];
    for (std::size_t r = 0; r < journal_records; ++r) {
      work.record(t, r, records[r]);
      batch[r] = std::as_bytes(std::span(records[r]));
    }
    journal.commit(journal.append(std::span<const std::span<const std::byte>>(batch)));
  };
  run_transactions(work, threads, commit, log);
  journal.close();
}

// Reads back the journal in `dir`, whose first `fillers` records are
// prepare_reused()'s.
void check_sluice(const char* dir, const journal_work& work, std::uint64_t fillers) {
  auto journal = sluice::journal::open(dir, {.recovery = recovery_mode::absolute_consistency});
  record_check check(work);
  for (const journal_record& record : journal.read_from(journal.first_lsn() + fillers)) {
    if (record.data.size() != journal_record_size)
      throw std::runtime_error("read back: a record of the wrong size");
    auto* bytes = reinterpret_cast<const char*>(record.data.data());
    check.add({bytes, journal_key_size}, {bytes + journal_key_size, journal_value_size});
  }
  check.finish();
  journal.close();
}

// `syncs`: journal_options::concurrent_syncs.
method sluice_method(const journal_content& work, int threads, unsigned syncs = 1) {
  std::string name = threads_name("sluice::journal", threads);
  if (syncs > 1) name += ", " + std::to_string(syncs) + " syncs at once";
  journal_options options{.concurrent_syncs = syncs};
  method m = in_group(journal_method(
                      name, role::sluice, work,
                      [work, threads, options](const char* dir, journal_log& log) {
                        run_sluice(dir, *work, threads, options, log);
                      },
                      [](const char* dir, const journal_work& w) { check_sluice(dir, w, 0); }),
                      threads);
  // --recommend: 16 threads with sluice's defaults, and with two syncs at once.
  if (threads != 16) return m;
  return syncs > 1 ? tuning_row(std::move(m), "journal_options",
                                "concurrent_syncs = " + std::to_string(syncs))
                   : tuning_row(std::move(m), "journal_options");
}

// The same transactions through the C API from C (peers/c_journal.c): one
// sluice_journal_append_many of the 100 records, then sluice_journal_commit.
void run_c_api(const char* dir, const journal_work& work, int threads, journal_log& log) {
  static_assert(C_ROWS_JOURNAL_RECORDS == journal_records);
  sluice_journal* journal = nullptr;
  check_sluice_c(sluice_journal_open(&journal, dir, nullptr));
  auto commit = [&](std::size_t t) {
    char records[journal_transaction_size];
    for (std::size_t r = 0; r < journal_records; ++r)
      work.record(t, r, records + r * journal_record_size);
    check_sluice_c(c_rows_journal_transaction(journal, records, journal_record_size));
  };
  try {
    run_transactions(work, threads, commit, log);
  } catch (...) {
    sluice_journal_close(journal);  // its error is the one already thrown, again
    throw;
  }
  check_sluice_c(sluice_journal_close(journal));
}

method c_api_method(const journal_content& work, int threads) {
  return in_group(journal_method(
                      threads_name("C sluice_journal", threads), role::sluice, work,
                      [work, threads](const char* dir, journal_log& log) {
                        run_c_api(dir, *work, threads, log);
                      },
                      [](const char* dir, const journal_work& w) { check_sluice(dir, w, 0); }),
                  threads);
}

// The segment size of the reused-segments row: room for the whole workload
// in one segment, 4 to 64 MiB.
std::uint64_t reuse_segment_size(const journal_work& work) {
  std::uint64_t wanted = (work.transactions * segment_bytes_per_transaction + mib) / mib * mib;
  return std::clamp<std::uint64_t>(wanted, 4 * mib, 64 * mib);
}

// A journal as a long-running one that truncates leaves it: its newest
// segment full and the one before it the spare, so that the first commit
// moves into a segment made from the spare. Each segment is filled by one
// record (a 64-byte segment header, a 24-byte record header, and the 24
// bytes each segment keeps for its seal: docs/journal-format.md).
void prepare_reused(const char* dir, std::uint64_t segment_size) {
  std::filesystem::create_directory(dir);
  auto journal = sluice::journal::open(dir, {.segment_size = segment_size, .reuse_segments = true});
  std::vector<std::byte> filler(segment_size - 64 - 24 - 24);
  journal.write(filler);                            // segment 1, full
  journal.write(filler);                            // segment 2, full
  journal.truncate_before(journal.next_lsn() - 1);  // segment 1 becomes the spare
  journal.close();
}

// 16 committing threads into segments made from spares
// (journal_options::reuse_segments), open and close included.
method reused_method(const journal_content& work) {
  constexpr int threads = 16;
  journal_options options{.segment_size = reuse_segment_size(*work), .reuse_segments = true};
  method m = in_group(
      journal_method(
          threads_name("sluice::journal", threads) + ", reused segments", role::sluice, work,
          [work, options](const char* dir, journal_log& log) {
            run_sluice(dir, *work, threads, options, log);
          },
          [](const char* dir, const journal_work& w) { check_sluice(dir, w, 1); }),
      threads);
  m.prepare = [size = options.segment_size](const target& t) { prepare_reused(t.path, size); };
  return tuning_row(std::move(m), "journal_options", "reuse_segments = true");
}

}  // namespace

// Measured on tmpfs from 1 to 36,000 transactions, the most one method had
// on disk at once was sluice::journal's: a 64 MiB segment per 64 MiB of
// transactions begun, and one more opened ahead. The estimate counts a
// spare segment beyond that; the reused-segments row's are smaller. The
// peers had less than the transactions' bytes twice plus 80 MiB: RocksDB
// preallocates about 70 MiB of log ahead, then writes its tables; SQLite
// keeps 1.25 times the bytes in its database and its log; LevelDB less.
std::uint64_t journal_disk_needed(std::uint64_t size) {
  std::uint64_t transactions = std::max<std::uint64_t>(1, size / journal_transaction_size);
  std::uint64_t segment = journal_options{}.segment_size;
  std::uint64_t begun = saturating_mul(transactions, segment_bytes_per_transaction) / segment + 1;
  std::uint64_t journal = saturating_mul(saturating_add(begun, 2), segment);
  std::uint64_t peers = saturating_add(
      saturating_mul(2, saturating_mul(transactions, journal_transaction_size)), 80 * mib);
  return std::max(journal, peers);
}

std::vector<bench_case> make_journal_case(std::uint64_t size) {
  auto work = make_journal_work(std::max<std::size_t>(1, size / journal_transaction_size));
  bench_case c{"journal",
               "journal: " + std::to_string(work->transactions) +
                   " transactions of 100 records of 16 + 100 B, each durable before its "
                   "committer's next; MB/s / 0.0116 = txn/s",
               work->transactions * journal_transaction_size,
               {},
               {}};
  c.same_bytes = false;
  c.syncs_each_commit = true;
  c.methods.push_back(journal_method(
      "write(2) + fdatasync per transaction", role::limit, work,
      [work](const char* dir, journal_log& log) { run_raw(dir, *work, log); }, check_raw));
  for (int threads : {1, 4, 16}) c.methods.push_back(sluice_method(work, threads));
  c.methods.push_back(sluice_method(work, 16, 2));
  c.methods.push_back(reused_method(work));
  for (int threads : {1, 16}) c.methods.push_back(c_api_method(work, threads));
  add_journal_peers(c, work);
  return {std::move(c)};
}

}  // namespace sluice::bench
