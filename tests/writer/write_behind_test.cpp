// writer_options::write_behind: full buffers are written by a background
// thread while the next one fills; its failures reach the caller with the
// same contract as any write error; flush, sync, close, moves and the other
// options wait for it or work through it.
#include <gtest/gtest.h>

#ifndef _WIN32
#include <unistd.h>
#endif

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <future>
#include <sluice/sluice.hpp>
#include <string>
#include <thread>
#include <utility>

#include "support/fake_sys.hpp"
#include "support/filesystem.hpp"
#include "support/platform.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::writer;

using write_behind = dir_test;

constexpr sluice::writer_options behind{.buffer_size = 100, .write_behind = true};

// Counts the pwritevs made on the thread that created it and on others.
class writes_by_thread {
 public:
  explicit writes_by_thread(fake_sys& fake) {
    fake.on_write_at([this](int, std::size_t) {
      (std::this_thread::get_id() == caller_ ? from_caller_ : from_elsewhere_)++;
      return transfer_action{};
    });
  }
  int from_caller() const { return from_caller_; }
  int from_elsewhere() const { return from_elsewhere_; }

 private:
  std::thread::id caller_ = std::this_thread::get_id();
  std::atomic<int> from_caller_{0};
  std::atomic<int> from_elsewhere_{0};
};

TEST_F(write_behind, full_buffers_are_written_by_another_thread_in_order) {
  auto path = dir / "out";
  std::string model = pattern(10'000);
  fake_sys fake;
  writes_by_thread writes(fake);
  writer out(path, behind);
  put_all(out, model);
  EXPECT_EQ(out.tell(), model.size());
  out.close();
  EXPECT_EQ(read_all(path), model);
  EXPECT_EQ(writes.from_elsewhere(), 99);  // every full buffer
  EXPECT_EQ(writes.from_caller(), 1);      // the last: close() waits for the thread, then writes it
  std::uint64_t expected_offset = 0;
  for (const auto& record : fake.writes_at()) {
    EXPECT_EQ(record.offset, static_cast<off_t>(expected_offset));
    expected_offset += record.requested;
  }
}

// While the background thread is stuck in a write, the caller fills the
// next buffers; it waits only once write_behind_depth buffers are queued.
TEST_F(write_behind, the_caller_fills_buffers_while_a_write_is_in_progress) {
  static_assert(sluice::writer_options::write_behind_depth == 2);
  auto path = dir / "out";
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<bool> caller_went_on{false};
  std::atomic<bool> went_on_while_blocked{false};
  fake_sys fake;
  fake.on_write_at([&](int nth, std::size_t) {
    if (nth == 1) {
      // A bound on the wait, so that a writer that wrongly writes on the
      // caller's thread fails the test instead of hanging it.
      released.wait_for(std::chrono::seconds(20));
      went_on_while_blocked = caller_went_on.load();
    }
    return transfer_action{};
  });
  std::string model = pattern(300);
  writer out(path, behind);
  put_all(out, model.substr(0, 200));  // hands off buffer 1 (being written), then fills buffer 2
  caller_went_on = true;
  release.set_value();
  put_all(out, model.substr(200));
  out.close();
  EXPECT_TRUE(went_on_while_blocked);
  EXPECT_EQ(read_all(path), model);
}

// A writer whose first background write waits until the test lets it go;
// the wait is bounded so that a broken writer fails the test instead of
// hanging it.
class held_first_write {
 public:
  explicit held_first_write(fake_sys& fake, transfer_action then = {}) {
    fake.on_write_at([this, then](int nth, std::size_t) {
      if (nth != 1) return transfer_action{};
      released_.wait_for(std::chrono::seconds(20));
      return then;
    });
  }
  void release() { release_.set_value(); }

 private:
  std::promise<void> release_;
  std::shared_future<void> released_ = release_.get_future().share();
};

#ifndef _WIN32
TEST_F(write_behind, at_most_depth_buffers_are_queued) {
  auto path = dir / "out";
  fake_sys fake;
  held_first_write held(fake);
  std::string model = pattern(500);
  writer out(path, behind);
  std::atomic<std::size_t> put{0};
  std::atomic<pid_t> producer_tid{0};
  std::thread producer([&] {
    producer_tid = ::gettid();
    for (char c : model) {
      out.put(c);
      ++put;
    }
  });
  // Buffer 1 is being written, buffer 2 queued, buffer 3 full: the 301st
  // put() must wait. Watched until the producer sleeps past its 300th put,
  // or has put everything (an engine that does not wait), or 20 s passed.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (put < model.size() && std::chrono::steady_clock::now() < deadline &&
         !(put >= 300 && asleep(producer_tid)))
    std::this_thread::yield();
  EXPECT_EQ(put.load(), 300u);
  held.release();
  producer.join();
  out.close();
  EXPECT_EQ(read_all(path), model);
}
#else
SLUICE_SKIPPED_ON_WINDOWS_F(write_behind, at_most_depth_buffers_are_queued,
                            "sees a thread asleep in /proc/self/task (gettid)")
#endif

// Three buffers queued behind a first write that is cut short, then fails:
// all of them come back, in order, behind the part that did reach the file.
void expect_queued_writes_taken_back(const std::filesystem::path& path,
                                     sluice::writer_options options, std::size_t written) {
  std::size_t capacity = options.buffer_size;
  fake_sys fake;
  held_first_write held(fake, {transfer_action::partial, 0, written});
  fake.fail(call::write_at, 2, EIO);  // the rest of the first write
  std::string model = pattern(10 * capacity);
  writer out(path, options);
  ASSERT_EQ(out.buffer_size(), capacity);
  auto e = thrown<sluice::write_error>([&] {
    put_all(out, model.substr(0, 2 * capacity + 1));  // two handed off, one byte buffered
    held.release();
    put_all(out, model.substr(2 * capacity + 1));
    out.flush();
  });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_EQ(e->offset(), written);
  EXPECT_EQ(out.tell() - out.buffered(), written);
  EXPECT_GE(out.tell(), 2 * capacity + 1);
  EXPECT_EQ(read_all(path), model.substr(0, written));
  EXPECT_TRUE(thrown<sluice::write_error>([&] { out.close(); }));
  EXPECT_EQ(read_all(path), model.substr(0, written));
}

TEST_F(write_behind, queued_buffers_come_back_after_a_failure) {
  expect_queued_writes_taken_back(dir / "out", {.buffer_size = 1000, .write_behind = true}, 130);
}

TEST_F(write_behind, queued_buffers_come_back_after_a_failure_when_preallocated) {
  expect_queued_writes_taken_back(
      dir / "out", {.buffer_size = 1000, .preallocate = 1 << 20, .write_behind = true}, 130);
}

TEST_F(write_behind, queued_direct_buffers_come_back_after_a_failure) {
  auto path = dir / "out";
  std::size_t block = direct_block(path);
  if (block == 0) GTEST_SKIP() << "no O_DIRECT in " << dir.path();
  // Four pages: whole blocks, and no rounding up of the buffer.
  expect_queued_writes_taken_back(
      path, {.buffer_size = 4 * 4096, .caching = sluice::caching::direct, .write_behind = true},
      block);
}

// print() near the end of a direct writer's buffer hands over the whole
// blocks and keeps the partial one: the thread still does the writing.
TEST_F(write_behind, a_direct_writer_hands_off_whole_blocks_of_a_partly_full_buffer) {
  auto path = dir / "out";
  std::size_t block = direct_block(path);
  if (block == 0) GTEST_SKIP() << "no O_DIRECT in " << dir.path();
  fake_sys fake;
  writes_by_thread writes(fake);
  std::size_t buffer_size = 16 * block;  // 8 KiB on ext4 and XFS, 64 KiB on btrfs and tmpfs
  writer out(
      path, {.buffer_size = buffer_size, .caching = sluice::caching::direct, .write_behind = true});
  std::string model = print_numbers(out, 20 * buffer_size);
  out.close();
  EXPECT_EQ(read_all(path), model);
  EXPECT_GT(writes.from_elsewhere(), 10);
  EXPECT_LE(writes.from_caller(), 1);  // close() writes the last partial block
}

TEST_F(write_behind, a_failure_pending_while_the_writer_moves_is_thrown_by_the_new_one) {
  auto path = dir / "out";
  fake_sys fake;
  held_first_write held(fake, {transfer_action::fail, ENOSPC});
  captured_reports reports;  // of the bytes the last writer loses
  std::string model = pattern(250);
  writer first(path, behind);
  put_all(first, model.substr(0, 150));
  held.release();
  writer second(std::move(first));
  writer third(dir / "other");
  third = std::move(second);
  auto e = thrown<sluice::write_error>([&] {
    put_all(third, model.substr(150));
    third.flush();
  });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->offset(), 0u);
  EXPECT_GE(third.tell(), 200u);  // the failure shows at the next hand-off, at the latest
  EXPECT_EQ(third.buffered(), third.tell());
  EXPECT_EQ(size_on_disk(path), 0u);
}

TEST_F(write_behind, a_failed_background_sync_keeps_the_queue_unwritten) {
  auto path = dir / "out";
  fake_sys fake;
  held_first_write held(fake);
  fake.fail(call::sync_data, 1, EIO);
  std::string model = pattern(1000);
  writer out(
      path,
      {.buffer_size = 100, .durability = sluice::durability::write_through, .write_behind = true});
  auto e = thrown([&] {
    put_all(out, model.substr(0, 201));
    held.release();
    put_all(out, model.substr(201));
    out.flush();
  });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_EQ(out.tell() - out.buffered(), 100u);  // the first buffer was written, then not synced
  EXPECT_EQ(read_all(path), model.substr(0, 100));
  EXPECT_TRUE(thrown([&] { out.close(); }));
  EXPECT_EQ(fake.calls(call::sync_data), 1) << "a failed sync was retried";
  EXPECT_EQ(fake.calls(call::write_at), 1);
}

TEST_F(write_behind, a_background_failure_is_thrown_by_the_next_call_and_nothing_is_lost) {
  auto path = dir / "out";
  std::string model = pattern(450);
  fake_sys fake;
  fake.fail(call::write_at, 2, ENOSPC);  // the second buffer, in the background
  writer out(path, behind);
  std::optional<sluice::write_error> e = thrown<sluice::write_error>([&] {
    put_all(out, model);
    out.flush();
  });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), ENOSPC);
  EXPECT_EQ(e->offset(), 100u);
  EXPECT_NE(std::string(e->what()).find("write " + quoted(path) + " at offset 100"),
            std::string::npos)
      << e->what();
  EXPECT_EQ(read_all(path), model.substr(0, 100));
  EXPECT_EQ(out.tell() - out.buffered(), 100u);
  EXPECT_LE(out.tell(), model.size());
  int writes = fake.calls(call::write_at);
  auto again = thrown<sluice::write_error>([&] { out.put('x'); });
  ASSERT_TRUE(again);
  EXPECT_EQ(again->offset(), 100u);
  EXPECT_TRUE(thrown<sluice::write_error>([&] { out.close(); }));
  EXPECT_EQ(fake.calls(call::write_at), writes) << "a failed write was retried";
  EXPECT_EQ(read_all(path), model.substr(0, 100));
}

TEST_F(write_behind, a_short_background_write_keeps_the_rest_buffered) {
  auto path = dir / "out";
  std::string model = pattern(1000);
  fake_sys fake;
  fake.short_transfer(call::write_at, 2, 30);  // buffer 2: 30 bytes in, then
  fake.fail(call::write_at, 3, EIO);           // the rest fails
  std::optional<sluice::write_error> e;
  {
    captured_reports reports;
    {
      writer out(path, behind);
      e = thrown<sluice::write_error>([&] {
        put_all(out, model);
        out.flush();
      });
      ASSERT_TRUE(e);
      EXPECT_EQ(e->offset(), 130u);
      EXPECT_EQ(out.tell() - out.buffered(), 130u);
    }  // destroyed without close: flush() threw the loss, nothing more to report
    EXPECT_TRUE(reports.reports().empty());
  }
  EXPECT_EQ(read_all(path), model.substr(0, 130));
}

TEST_F(write_behind, a_destroyed_writer_reports_the_exact_bytes_lost) {
  auto path = dir / "out";
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  fake_sys fake;
  fake.on_write_at([&](int nth, std::size_t) {
    if (nth > 1) return transfer_action{};
    released.wait_for(std::chrono::seconds(20));  // until the caller is done putting
    return transfer_action{transfer_action::fail, EIO};
  });
  captured_reports reports;
  {
    writer out(path, behind);
    put_all(out, pattern(150));  // one buffer handed off, 50 bytes buffered
    release.set_value();
  }
  ASSERT_EQ(reports.reports().size(), 1u);
  EXPECT_NE(reports.reports()[0].message.find("150 bytes lost"), std::string::npos)
      << reports.reports()[0].message;
  EXPECT_EQ(size_on_disk(path), 0u);
}

TEST_F(write_behind, write_through_syncs_each_buffer_and_a_failed_sync_poisons) {
  auto path = dir / "out";
  std::string model = pattern(1000);
  {
    fake_sys fake;
    writer out(path, {.buffer_size = 100,
                      .durability = sluice::durability::write_through,
                      .write_behind = true});
    put_all(out, model);
    out.close();
    EXPECT_EQ(fake.calls(call::sync_data), fake.calls(call::write_at));
  }
  EXPECT_EQ(read_all(path), model);

  fake_sys fake;
  fake.fail(call::sync_data, 2, EIO);
  writer out(
      path,
      {.buffer_size = 100, .durability = sluice::durability::write_through, .write_behind = true});
  auto e = thrown([&] {
    put_all(out, model);
    out.flush();
  });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  int syncs = fake.calls(call::sync_data);
  EXPECT_TRUE(thrown([&] { out.sync(); }));
  EXPECT_TRUE(thrown([&] { out.close(); }));
  EXPECT_EQ(fake.calls(call::sync_data), syncs) << "a failed sync was retried";
}

TEST_F(write_behind, flush_and_sync_wait_for_the_background_writes) {
  auto path = dir / "out";
  std::string model = pattern(1050);
  writer out(path, behind);
  put_all(out, model);
  out.flush();
  EXPECT_EQ(out.buffered(), 0u);
  EXPECT_EQ(read_all(path), model);
  out.put('!');
  out.sync();
  EXPECT_EQ(read_all(path), model + "!");
  out.close();
}

TEST_F(write_behind, a_large_write_waits_for_the_queue_then_skips_the_buffer) {
  auto path = dir / "out";
  std::string head = pattern(250, 1);
  std::string payload = pattern(10'000, 2);
  writer out(path, behind);
  put_all(out, head);
  out.write(payload);
  out.close();
  EXPECT_EQ(read_all(path), head + payload);
}

TEST_F(write_behind, a_moved_writer_goes_on_writing_in_the_background) {
  auto path = dir / "out";
  std::string model = pattern(5000);
  writer first(path, behind);
  put_all(first, model.substr(0, 2500));
  writer second(std::move(first));
  put_all(second, model.substr(2500));
  EXPECT_FALSE(first.is_open());
  writer third(dir / "other");
  third = std::move(second);
  third.close();
  EXPECT_EQ(read_all(path), model);
}

TEST_F(write_behind, reserve_beyond_the_buffer_grows_it) {
  auto path = dir / "out";
  std::string model = pattern(150) + std::string(1000, 'r') + pattern(400, 3);
  writer out(path, behind);
  put_all(out, model.substr(0, 150));
  auto room = out.reserve(1000);
  std::fill_n(room.data(), 1000, 'r');
  out.commit(1000);
  EXPECT_GE(out.buffer_size(), 1000u);
  put_all(out, model.substr(1150));
  out.close();
  EXPECT_EQ(read_all(path), model);
}

TEST_F(write_behind, atomic_replace_destroyed_without_close_leaves_the_target) {
  auto path = dir / "target";
  write_all(path, "old");
  {
    writer out(path, {.buffer_size = 100, .atomic_replace = true, .write_behind = true});
    put_all(out, pattern(1000));
  }
  EXPECT_EQ(read_all(path), "old");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 1);
  {
    writer out(path, {.buffer_size = 100, .atomic_replace = true, .write_behind = true});
    put_all(out, pattern(1000));
    out.close();
  }
  EXPECT_EQ(read_all(path), pattern(1000));
}

TEST_F(write_behind, works_with_no_cache_and_preallocation) {
  auto path = dir / "out";
  std::string model = pattern(100'000);
  writer out(path, {.buffer_size = 4096,
                    .preallocate = 1 << 20,
                    .caching = sluice::caching::no_cache,
                    .write_behind = true});
  put_all(out, model);
  out.close();
  EXPECT_EQ(size_on_disk(path), model.size());
  EXPECT_EQ(read_all(path), model);
}

}  // namespace
