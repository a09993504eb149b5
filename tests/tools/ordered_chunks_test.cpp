// The tools' ordered pipeline: chunks made on several threads reach the
// consumer in order, memory stays bounded, and a failure on either side
// stops the work and comes back to the caller.
#include "common/ordered_chunks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using sluice_tools::block;
using sluice_tools::for_each_chunk_in_order;

// Makes chunk k's block: the decimal text of k, after a short random pause
// so that the workers finish out of order.
void make_number(std::size_t chunk, block& out) {
  thread_local std::minstd_rand random(std::hash<std::thread::id>{}(std::this_thread::get_id()));
  std::this_thread::sleep_for(std::chrono::microseconds(random() % 200));
  std::string text = std::to_string(chunk);
  std::memcpy(out.room(text.size()), text.data(), text.size());
  out.size = text.size();
}

std::string text_of(const block& made) { return std::string(made.bytes.get(), made.size); }

TEST(ordered_chunks, every_chunk_reaches_the_consumer_once_in_order) {
  for (unsigned threads : {1u, 2u, 5u}) {
    std::size_t next = 0;
    for_each_chunk_in_order(500, threads, make_number, [&](std::size_t chunk, const block& made) {
      ASSERT_EQ(chunk, next) << threads << " threads";
      ASSERT_EQ(text_of(made), std::to_string(chunk));
      ++next;
    });
    EXPECT_EQ(next, 500u);
  }
}

TEST(ordered_chunks, no_more_than_two_blocks_per_thread_are_ahead_of_the_consumer) {
  constexpr unsigned threads = 3;
  std::atomic<std::size_t> started{0};
  std::atomic<std::size_t> consumed{0};
  std::atomic<std::size_t> most_ahead{0};
  auto produce = [&](std::size_t chunk, block& out) {
    std::size_t ahead = ++started - consumed.load();
    std::size_t seen = most_ahead.load();
    while (ahead > seen && !most_ahead.compare_exchange_weak(seen, ahead)) {
    }
    make_number(chunk, out);
  };
  for_each_chunk_in_order(300, threads, produce, [&](std::size_t, const block&) {
    std::this_thread::sleep_for(std::chrono::microseconds(50));
    ++consumed;
  });
  EXPECT_EQ(started.load(), 300u);
  EXPECT_LE(most_ahead.load(), 2u * threads);
}

TEST(ordered_chunks, a_failing_producer_is_reported_after_the_chunks_before_it) {
  std::size_t consumed = 0;
  auto produce = [](std::size_t chunk, block& out) {
    if (chunk == 37) throw std::runtime_error("chunk 37 is unreadable");
    make_number(chunk, out);
  };
  try {
    for_each_chunk_in_order(1000, 4, produce, [&](std::size_t, const block&) { ++consumed; });
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "chunk 37 is unreadable");
  }
  EXPECT_EQ(consumed, 37u);
}

TEST(ordered_chunks, a_failing_consumer_stops_the_producers) {
  std::atomic<std::size_t> produced{0};
  auto produce = [&](std::size_t chunk, block& out) {
    ++produced;
    make_number(chunk, out);
  };
  EXPECT_THROW(for_each_chunk_in_order(1000, 2, produce,
                                       [](std::size_t chunk, const block&) {
                                         if (chunk == 5) throw std::runtime_error("disk full");
                                       }),
               std::runtime_error);
  // Chunks 0..5 and at most the 2 * 2 blocks that may be ahead of chunk 5.
  EXPECT_LE(produced.load(), 6u + 4u);
}

TEST(ordered_chunks, no_chunks_calls_nothing) {
  bool called = false;
  for_each_chunk_in_order(
      0, 2, [&](std::size_t, block&) { called = true; },
      [&](std::size_t, const block&) { called = true; });
  EXPECT_FALSE(called);
}

// Chunks whose number is found as they start, as a stream's are.

TEST(ordered_chunks, starts_run_one_at_a_time_in_order_until_one_says_there_is_no_more) {
  for (unsigned threads : {1u, 2u, 5u}) {
    std::atomic<int> starting{0};
    std::atomic<int> most_at_once{0};
    std::vector<std::size_t> started;  // written by one start at a time
    auto start = [&](std::size_t chunk, block&) {
      int now = ++starting;
      if (now > most_at_once) most_at_once = now;
      started.push_back(chunk);
      std::this_thread::sleep_for(std::chrono::microseconds(chunk % 7 * 20));
      --starting;
      return chunk < 300;
    };
    std::size_t next = 0;
    for_each_chunk_in_order(threads, start, make_number, [&](std::size_t chunk, const block& made) {
      ASSERT_EQ(chunk, next) << threads << " threads";
      ASSERT_EQ(text_of(made), std::to_string(chunk));
      ++next;
    });
    EXPECT_EQ(next, 300u);
    EXPECT_EQ(most_at_once.load(), 1) << threads << " threads";
    ASSERT_EQ(started.size(), 301u) << "the last start says there is no chunk 300";
    for (std::size_t k = 0; k < started.size(); ++k) ASSERT_EQ(started[k], k);
  }
}

TEST(ordered_chunks, a_start_gets_its_own_chunk_s_block_made_after_it) {
  // start puts the chunk's number in the block, produce makes its text of it.
  auto start = [](std::size_t chunk, block& out) {
    out.input = chunk;
    return chunk < 100;
  };
  auto produce = [](std::size_t, block& out) {
    std::string text = std::to_string(out.input);
    std::memcpy(out.room(text.size()), text.data(), text.size());
    out.size = text.size();
  };
  std::size_t next = 0;
  for_each_chunk_in_order(3, start, produce, [&](std::size_t chunk, const block& made) {
    ASSERT_EQ(text_of(made), std::to_string(chunk));
    ++next;
  });
  EXPECT_EQ(next, 100u);
}

TEST(ordered_chunks, a_failing_start_is_reported_after_the_chunks_before_it) {
  std::size_t consumed = 0;
  std::atomic<std::size_t> started_after{0};
  auto start = [&](std::size_t chunk, block&) {
    if (chunk > 37) ++started_after;
    if (chunk == 37) throw std::runtime_error("the stream ends inside a record");
    return true;
  };
  try {
    for_each_chunk_in_order(4, start, make_number, [&](std::size_t, const block&) { ++consumed; });
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "the stream ends inside a record");
  }
  EXPECT_EQ(consumed, 37u);
  EXPECT_EQ(started_after.load(), 0u) << "no chunk starts once a start has failed";
}

TEST(ordered_chunks, a_stream_without_chunks_calls_nothing_else) {
  bool called = false;
  int starts = 0;
  for_each_chunk_in_order(
      2, [&](std::size_t, block&) { return ++starts, false; },
      [&](std::size_t, block&) { called = true; },
      [&](std::size_t, const block&) { called = true; });
  EXPECT_FALSE(called);
  EXPECT_EQ(starts, 1);
}

}  // namespace
