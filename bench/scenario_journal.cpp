// sluice-bench "journal": transactions of 100 records of a 16-byte key and a
// 100-byte value, each durable before its committer starts the next. The
// one-thread limit is write(2) + fdatasync per transaction; sluice::journal
// runs with 1, 4 and 16 committing threads (group commit shares the syncs),
// and 16 with two syncs at once (journal_options::concurrent_syncs);
// RocksDB, LevelDB and SQLite when sluice-bench was built with them. MB/s
// over 0.0116 is transactions per second (open and close included); the
// "after close" column gives the commit loop's own transactions/s, records/s
// and the measured p50/p99 commit latency.
#include <filesystem>
#include <sluice/journal.hpp>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "io.hpp"
#include "journal_load.hpp"
#include "journal_peers.hpp"
#include "scenarios.hpp"

namespace sluice::bench {
namespace {

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
void run_sluice(const char* dir, const journal_work& work, int threads, unsigned syncs,
                journal_log& log) {
  auto journal = sluice::journal::open(dir, {.concurrent_syncs = syncs});
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

void check_sluice(const char* dir, const journal_work& work) {
  auto journal = sluice::journal::open(dir, {.recovery = recovery_mode::absolute_consistency});
  record_check check(work);
  for (const journal_record& record : journal.read_from(1)) {
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
  return in_group(journal_method(
                      name, role::sluice, work,
                      [work, threads, syncs](const char* dir, journal_log& log) {
                        run_sluice(dir, *work, threads, syncs, log);
                      },
                      check_sluice),
                  threads);
}

}  // namespace

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
  add_journal_peers(c, work);
  return {std::move(c)};
}

}  // namespace sluice::bench
