// sluice::journal with many threads appending and committing at once: every
// record is there once, in the order its thread appended it, and every
// committed record is readable. Run under the tsan preset too.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <sluice/sluice.hpp>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "support/journal_test_support.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::journal;

using journal_concurrency = dir_test;

std::string tagged(int thread, int seq) {
  std::string text = "t";
  text += std::to_string(thread);
  text += '-';
  text += std::to_string(seq);
  text += '-';
  text += pattern(static_cast<std::size_t>(seq % 97), static_cast<std::uint64_t>(seq));
  return text;
}

struct appended {
  std::uint64_t lsn;
  std::string data;
};

// Thread `t` writes `count` records: single writes, and batches of three
// appends closed by one commit of the last.
std::vector<appended> run_writer(journal& log, int t, int count) {
  std::vector<appended> mine;
  for (int seq = 0; seq < count;) {
    if (seq % 4 == 0 && seq + 3 <= count) {
      std::uint64_t last = 0;
      for (int k = 0; k < 3; ++k, ++seq) {
        last = log.append(bytes_of(tagged(t, seq)));
        mine.push_back({last, tagged(t, seq)});
      }
      log.commit(last);
    } else {
      mine.push_back({log.write(bytes_of(tagged(t, seq))), tagged(t, seq)});
      ++seq;
    }
  }
  return mine;
}

TEST_F(journal_concurrency, many_threads_append_and_commit_without_loss_or_reordering) {
  constexpr int threads = 8;
  constexpr int per_thread = 150;
  std::vector<std::vector<appended>> results(threads);
  {
    auto log = journal::open(dir.path(), {.segment_size = 16 * 1024});  // rotations too
    std::atomic<bool> go{false};
    std::vector<std::thread> writers;
    for (int t = 0; t < threads; ++t)
      writers.emplace_back([&, t] {
        while (!go.load()) std::this_thread::yield();
        results[t] = run_writer(log, t, per_thread);
      });
    go = true;
    for (auto& w : writers) w.join();
    EXPECT_EQ(log.next_lsn(), std::uint64_t{threads * per_thread} + 1);
    // Everything committed is readable before closing.
    EXPECT_EQ(read_records(log).size(), std::size_t{threads * per_thread});
    log.close();
  }
  std::map<std::uint64_t, std::string> by_lsn;
  for (int t = 0; t < threads; ++t) {
    std::uint64_t previous = 0;
    for (const auto& record : results[t]) {
      EXPECT_GT(record.lsn, previous) << "thread " << t << " went backwards";
      previous = record.lsn;
      EXPECT_TRUE(by_lsn.emplace(record.lsn, record.data).second) << "lsn given twice";
    }
  }
  auto log = journal::open(dir.path(), {.segment_size = 16 * 1024});
  auto records = read_records(log);
  ASSERT_EQ(records.size(), by_lsn.size());
  std::uint64_t lsn = 1;
  for (const auto& record : records) {
    ASSERT_EQ(record.lsn, lsn++);
    EXPECT_EQ(record.data, by_lsn[record.lsn]);
  }
}

TEST_F(journal_concurrency, a_batch_appended_alongside_others_keeps_its_lsns_together) {
  constexpr int threads = 6;
  constexpr int batches = 40;
  constexpr int per_batch = 10;
  {
    auto log = journal::open(dir.path(), {.segment_size = 16 * 1024});
    std::vector<std::thread> writers;
    for (int t = 0; t < threads; ++t)
      writers.emplace_back([&log, t] {
        for (int b = 0; b < batches; ++b) {
          std::vector<std::string> texts;
          for (int r = 0; r < per_batch; ++r)
            texts.push_back(std::to_string(t) + " " + std::to_string(b) + " " + std::to_string(r));
          std::vector<std::span<const std::byte>> batch;
          for (const std::string& text : texts) batch.push_back(bytes_of(text));
          std::uint64_t last = log.append(batch);
          if (b % 4 == 0) log.commit(last);
        }
      });
    for (auto& w : writers) w.join();
    log.close();
  }
  auto log = journal::open(dir.path(), {.segment_size = 16 * 1024});
  auto records = read_records(log);
  ASSERT_EQ(records.size(), std::size_t{threads * batches * per_batch});
  // Every run of per_batch records is one batch: one thread's, in order.
  for (std::size_t at = 0; at < records.size(); at += per_batch) {
    std::string owner = records[at].data.substr(0, records[at].data.rfind(' '));
    for (int r = 0; r < per_batch; ++r)
      ASSERT_EQ(records[at + r].data, owner + " " + std::to_string(r))
          << "lsn " << records[at + r].lsn;
  }
}

// With reuse_segments, segments are also made from the spares truncation
// keeps, while readers come and go (no spare is reused under a live cursor).
TEST_F(journal_concurrency, readers_and_truncation_run_alongside_committers) {
  const sluice::journal_options configurations[] = {
      {.segment_size = 8 * 1024},
      {.segment_size = 8 * 1024, .reuse_segments = true},
      {.segment_size = 8 * 1024, .concurrent_syncs = 2, .reuse_segments = true},
  };
  int case_number = 0;
  for (const auto& options : configurations) {
    SCOPED_TRACE("configuration " + std::to_string(case_number));
    auto log = journal::open(dir.path() / std::to_string(case_number++), options);
    std::atomic<bool> done{false};
    std::thread writer([&] {
      for (int i = 1; i <= 400; ++i) log.write(bytes_of(payload(i)));
      done = true;
    });
    while (!done.load()) {
      auto first = log.first_lsn();
      try {
        auto records = read_records(log, first);
        for (std::size_t i = 0; i < records.size(); ++i)
          ASSERT_EQ(records[i], (read_record{first + i, payload(first + i)}));
      } catch (const std::system_error& e) {
        // A segment the cursor had not reached yet was truncated away.
        ASSERT_EQ(e.code().value(), ENOENT) << e.what();
      }
      log.truncate_before(log.next_lsn() > 50 ? log.next_lsn() - 50 : 1);
    }
    writer.join();
    auto first = log.first_lsn();
    auto records = read_records(log, first);
    ASSERT_FALSE(records.empty());
    EXPECT_EQ(records.back().lsn, 400u);
    EXPECT_EQ(records.front().lsn, first);
    log.close();
    auto again = journal::open(dir.path() / std::to_string(case_number - 1), options);
    EXPECT_EQ(read_records(again, again.first_lsn()), records);
  }
}

}  // namespace
