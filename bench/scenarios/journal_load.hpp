// sluice-bench "journal": the workload every method of the scenario runs.
// Transactions of 100 records (a 16-byte key and a 100-byte value); each
// committing thread takes every threads-th transaction and waits for it to
// be durable before it starts its next. What each transaction took, from its
// first record to its durable return, is measured and kept (the commit
// latency), and every method's records are read back untimed through its own
// API and checked: the methods write different files, so the byte
// comparison of the other scenarios does not apply.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/bench_case.hpp"
#include "scenarios/transaction.hpp"

namespace sluice::bench {

// Puts the records of transaction `t` into `batch`, a key-value store's
// write batch (LevelDB's and RocksDB's WriteBatch and Slice have one shape).
template <class Slice, class Batch>
void fill_batch(Batch& batch, const journal_work& work, std::size_t t) {
  char record[journal_record_size];
  for (std::size_t r = 0; r < journal_records; ++r) {
    work.record(t, r, record);
    batch.Put(Slice(record, journal_key_size),
              Slice(record + journal_key_size, journal_value_size));
  }
}

// What the runs of one method measured: every transaction's latency and
// each run's commit loop, in seconds.
class journal_log {
 public:
  void add_run(std::vector<double> latencies, double seconds);
  // "412 txn/s, 41200 rec/s, p50 2.1 ms, p99 4.3 ms" over the runs so far.
  std::string describe(std::size_t transactions) const;

 private:
  mutable std::mutex mutex_;
  std::vector<double> latencies_;
  std::vector<double> seconds_;
};

// Calls commit(t) for every transaction t on `threads` threads, each
// thread its share in turn, and adds the latencies to `log`. Rethrows the
// first failure of any thread once all have stopped.
void run_transactions(const journal_work& work, int threads,
                      const std::function<void(std::size_t)>& commit, journal_log& log);

// Checks the records a method reads back: each key once, the right value,
// all of them.
class record_check {
 public:
  explicit record_check(const journal_work& work);
  void add(std::string_view key, std::string_view value);  // throws on a wrong record
  void finish() const;                                     // throws if some are missing

 private:
  const journal_work& work_;
  std::vector<bool> seen_;
  std::size_t count_ = 0;
};

// A method of the scenario: run(t) creates the directory t.path and writes
// into it; check(path) reads it back. The observation is the log's figures.
// The runner's work_dir::remove_output removes the directory after each run,
// good or failed.
method journal_method(std::string name, role kind, journal_content work,
                      std::function<void(const char* dir, journal_log&)> run,
                      std::function<void(const char* dir, const journal_work&)> check);

// "<what>, 1 thread" or "<what>, <threads> threads".
std::string threads_name(const std::string& what, int threads);

// A peer store's method on `threads` committing threads, in group
// `threads`: run(dir, work, threads, log), then check(dir, work).
method threaded_peer(const std::string& store, int threads, journal_content work,
                     void (*run)(const char* dir, const journal_work&, int threads, journal_log&),
                     void (*check)(const char* dir, const journal_work&));

}  // namespace sluice::bench
