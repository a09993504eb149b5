// sluice-bench "durable": a journal's workload. The journal scenario's
// transactions (transaction.hpp: 100 records of a 16-byte key and a 100-byte
// value) are appended to one file, and each must be durable before the next
// is written: a write and an fdatasync per transaction, the cost a database
// pays per commit. MB/s divided by 0.0116 gives transactions per second.
#include <algorithm>
#include <cerrno>
#include <memory>
#include <numeric>
#include <random>
#include <span>
#include <system_error>
#include <vector>

#include "core/io.hpp"
#include "core/units.hpp"
#include "peers/mapped_output.hpp"
#include "peers/stdio_file.hpp"
#include "peers/stdio_unlocked.h"
#include "scenarios/scenarios.hpp"
#include "scenarios/transaction.hpp"

namespace sluice::bench {
namespace {

struct journal {
  std::vector<char> bytes;  // every transaction, one after the other
  std::size_t transactions;
};
using content = std::shared_ptr<const journal>;

journal make_journal(std::size_t transactions) {
  journal j{std::vector<char>(transactions * journal_transaction_size), transactions};
  journal_content work = make_journal_work(transactions);
  char* out = j.bytes.data();
  for (std::size_t t = 0; t < transactions; ++t)
    for (std::size_t r = 0; r < journal_records; ++r, out += journal_record_size)
      work->record(t, r, out);
  return j;
}

// Calls commit(data, n) for each transaction.
template <class Commit>
void commit_each(const journal& j, Commit&& commit) {
  for (std::size_t t = 0; t < j.transactions; ++t)
    commit(j.bytes.data() + t * journal_transaction_size, journal_transaction_size);
}

void run_write(const target& t, const content& j) {
  raw_file out(t.path);
  commit_each(*j, [&out](const char* data, std::size_t n) { commit_raw(out, data, n); });
  out.finish(t.sync);
}

void run_stdio(const target& t, const content& j) {
  stdio_file out(t.path, big_buffer_size);
  commit_each(*j, [&out](const char* data, std::size_t n) {
    if (SLUICE_BENCH_FWRITE_UNLOCKED(data, 1, n, out.get()) != n)
      throw std::system_error(errno, std::generic_category(), "fwrite");
    out.sync_data();
  });
  out.finish(t.sync);
}

// The file sized up front and mapped; each transaction copied in and its
// pages made durable (msync, or FlushViewOfFile + FlushFileBuffers).
void run_mmap(const target& t, const content& j) {
  raw_file out(t.path, O_RDWR);
  std::size_t size = j->bytes.size();
  resize_file(out.fd(), size);
  {
    mapped_output map(out.fd(), size);
    std::size_t at = 0;
    commit_each(*j, [&](const char* data, std::size_t n) {
      std::copy(data, data + n, map.data() + at);
      map.sync(at, n);
      at += n;
    });
  }
  out.finish(t.sync);
}

// A page store's commits: the file sized up front, then the transactions in
// a fixed random order, each written as the whole 4 KiB pages it touches
// (taken from the final file, so the bytes end up the same) and made
// durable.
void run_random_pages(const target& t, const content& j) {
  constexpr std::size_t page = 4096;
  raw_file out(t.path);
  std::size_t size = j->bytes.size();
  resize_file(out.fd(), size);
  std::vector<std::size_t> order(j->transactions);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937_64(42));
  for (std::size_t k : order) {
    std::size_t from = k * journal_transaction_size / page * page;
    std::size_t to = std::min(size, (k + 1) * journal_transaction_size);
    if (write_some_at(out.fd(), j->bytes.data() + from, to - from, from) != to - from)
      throw std::system_error(EIO, std::generic_category(), "pwrite: short write");
    out.sync_data();
  }
  out.finish(t.sync);
}

void run_sluice(const target& t, const content& j, writer_options options, bool write_through) {
  options.buffer_size = t.buffer_size;
  sluice::writer out(t.path, options);
  commit_each(*j, [&](const char* data, std::size_t n) {
    out.write(std::as_bytes(std::span(data, n)));
    if (write_through)
      out.flush();
    else
      out.sync();
  });
  finish(out, t);
}

}  // namespace

std::vector<bench_case> make_durable(std::uint64_t size) {
  auto j = std::make_shared<const journal>(
      make_journal(std::max<std::size_t>(1, size / journal_transaction_size)));
  bench_case c{"durable",
               "durable: " + std::to_string(j->transactions) +
                   " transactions of 100 records of 16 + 100 B, each fdatasync'ed",
               j->bytes.size(),
               {},
               {}};
  c.syncs_each_commit = true;
  c.methods.push_back(bind_method("write(2) + fdatasync each", role::limit, run_write, j));
  c.methods.push_back(bind_method("fwrite + fflush + fdatasync each", role::peer, run_stdio, j));
  c.methods.push_back(bind_method(std::string(mapping_name) + ", " + mapped_sync_name + " each",
                                  role::peer, run_mmap, j));
  c.methods.push_back(
      bind_method("random 4 KiB pages, pwrite + fdatasync each", role::peer, run_random_pages, j));
  c.methods.push_back(bind_method(
      "sluice write + sync() each", role::sluice,
      [](const target& t, const content& c) { run_sluice(t, c, {}, false); }, j));
  c.methods.push_back(bind_method(
      "sluice write_through, flush() each", role::sluice,
      [](const target& t, const content& c) {
        run_sluice(t, c, {.durability = durability_mode::write_through}, true);
      },
      j));
  c.methods.push_back(bind_method(
      "sluice + preallocate, sync() each", role::sluice,
      [](const target& t, const content& c) {
        run_sluice(t, c, {.preallocate = c->bytes.size()}, false);
      },
      j));
  return {std::move(c)};
}

}  // namespace sluice::bench
