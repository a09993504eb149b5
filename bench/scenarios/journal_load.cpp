// sluice-bench "journal": the transaction loop, its latencies and the
// read-back check shared by every method of the scenario.
#include "scenarios/journal_load.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <thread>

#include "core/timing.hpp"

namespace sluice::bench {
namespace {

// The value at fraction `q` of the sorted `values` (nearest rank).
double quantile(const std::vector<double>& sorted, double q) {
  auto rank = static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[rank];
}

// One committing thread: transactions first, first + step, ...
void commit_share(const journal_work& work, std::size_t first, std::size_t step,
                  const std::function<void(std::size_t)>& commit, std::vector<double>& latencies) {
  for (std::size_t t = first; t < work.transactions; t += step) {
    latencies[t] = seconds_of([&] { commit(t); });
  }
}

}  // namespace

void journal_log::add_run(std::vector<double> latencies, double seconds) {
  std::lock_guard lock(mutex_);
  latencies_.insert(latencies_.end(), latencies.begin(), latencies.end());
  seconds_.push_back(seconds);
}

std::string journal_log::describe(std::size_t transactions) const {
  std::lock_guard lock(mutex_);
  if (seconds_.empty()) return "";
  std::vector<double> sorted = latencies_;
  std::sort(sorted.begin(), sorted.end());
  double per_second = static_cast<double>(transactions) / median(seconds_);
  char text[128];
  std::snprintf(text, sizeof text, "%.0f txn/s, %.0f rec/s, p50 %.2f ms, p99 %.2f ms", per_second,
                per_second * journal_records, quantile(sorted, 0.5) * 1e3,
                quantile(sorted, 0.99) * 1e3);
  return text;
}

void run_transactions(const journal_work& work, int threads,
                      const std::function<void(std::size_t)>& commit, journal_log& log) {
  std::vector<double> latencies(work.transactions);
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(threads));
  double seconds = seconds_of([&] {
    std::vector<std::jthread> pool;
    for (int i = 0; i < threads; ++i)
      pool.emplace_back([&, i] {
        try {
          commit_share(work, static_cast<std::size_t>(i), static_cast<std::size_t>(threads), commit,
                       latencies);
        } catch (...) {
          errors[static_cast<std::size_t>(i)] = std::current_exception();
        }
      });
  });  // the pool joins before the clock stops
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  log.add_run(std::move(latencies), seconds);
}

record_check::record_check(const journal_work& work)
    : work_(work), seen_(work.transactions * journal_records) {}

void record_check::add(std::string_view key, std::string_view value) {
  std::size_t t = 0, r = 0;
  std::string k(key);
  if (key.size() != journal_key_size || std::sscanf(k.c_str(), "%8zx%8zx", &t, &r) != 2 ||
      t >= work_.transactions || r >= journal_records || journal_work::key(t, r) != key)
    throw std::runtime_error("read back: a record with a wrong key");
  if (value != std::string_view(work_.value.data(), work_.value.size()))
    throw std::runtime_error("read back: key " + k + " has a wrong value");
  if (seen_[t * journal_records + r]) throw std::runtime_error("read back: key " + k + " twice");
  seen_[t * journal_records + r] = true;
  ++count_;
}

void record_check::finish() const {
  if (count_ != seen_.size())
    throw std::runtime_error("read back: " + std::to_string(count_) + " records instead of " +
                             std::to_string(seen_.size()));
}

method journal_method(std::string name, role kind, journal_content work,
                      std::function<void(const char* dir, journal_log&)> run,
                      std::function<void(const char* dir, const journal_work&)> check) {
  auto log = std::make_shared<journal_log>();
  auto timed = [run, log](const target& t) { run(t.path, *log); };
  auto observe = [work, check, log](const target& t) {
    check(t.path, *work);
    return log->describe(work->transactions);
  };
  return {std::move(name), kind, timed, observe};
}

std::string threads_name(const std::string& what, int threads) {
  return what + ", " + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

method threaded_peer(const std::string& store, int threads, journal_content work,
                     void (*run)(const char* dir, const journal_work&, int threads, journal_log&),
                     void (*check)(const char* dir, const journal_work&)) {
  return in_group(journal_method(
                      threads_name(store, threads), role::peer, work,
                      [work, threads, run](const char* dir, journal_log& log) {
                        run(dir, *work, threads, log);
                      },
                      check),
                  threads);
}

}  // namespace sluice::bench
