// The two write-behind engines (writer/thread_write_behind.hpp and
// writer/uring_write_behind.hpp, the latter on the fake seam's emulated
// ring), driven through write_behind's engine calls as make_room drives
// them: buffers queued reach the file in order at their offsets, at most
// `depth` are queued or in flight, and after a failure the engine keeps
// what it could not write, in file order from the first byte missing, and
// the file holds nothing past that byte. write_behind_test.cpp and
// uring_write_behind_test.cpp test them through sluice::writer.
#include <gtest/gtest.h>

#ifndef _WIN32
#include <sched.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "support/fake_sys.hpp"
#include "support/platform.hpp"
#include "support/test_support.hpp"
#include "writer/thread_write_behind.hpp"
#include "writer/uring_write_behind.hpp"
#include "writer/write_behind.hpp"

namespace {

using namespace sluice_test;
using sluice::detail::foreground_flush;
using sluice::detail::make_flush_strategy;
using sluice::detail::thread_write_behind;
using sluice::detail::uring_write_behind;
using sluice::detail::write_behind;

enum class engine_kind { thread, io_uring };

constexpr std::size_t capacity = 256;

// The size of the nth buffer queued: each different, so that a
// pwritev's size says which buffer it writes.
constexpr std::size_t size_of(std::size_t nth) { return 100 + nth; }

// A file of the test's directory held as a writer holds it, an engine
// writing to it through the fake seam over a plain_flush, and the bytes
// queued so far: model_[0, queued_).
class engine_test : public dir_test {
 protected:
  void SetUp() override {
    file_.target_ = sluice::file::open(path_);
    file_.capacity_ = capacity;
  }

  // A plain_flush, as a writer with default options attaches it.
  static std::unique_ptr<foreground_flush> plain() {
    return make_flush_strategy(sluice::writer_options{});
  }

  // The thread engine: each buffer written with plain_flush's step.
  std::unique_ptr<write_behind> thread_engine(std::size_t depth) {
    return std::make_unique<thread_write_behind>(plain(), file_, depth);
  }

  // The io_uring engine on the fake's emulated ring.
  std::unique_ptr<write_behind> uring_engine(std::size_t depth, async_options ring) {
    fake_.emulate_async(ring);
    auto inner = plain();
    auto engine = sluice::detail::uring_write_behind::open(inner, file_, depth, false);
    return std::unique_ptr<write_behind>(static_cast<write_behind*>(engine.release()));
  }

  // Queues the next size_of(n) bytes of the model with `engine`, in the
  // buffer the last queue() returned. False if the engine returned none
  // (it has failed).
  bool queue(write_behind& engine) {
    std::size_t size = size_of(offsets_.size());
    std::memcpy(current_.get(), model_.data() + queued_, size);
    auto next = engine.queue(current_, capacity, size, queued_);
    offsets_.push_back(queued_);
    queued_ += size;
    bool taken = next.data != nullptr;
    // A failed engine keeps `current_` and gives none back: a new one to go on with.
    current_ = taken ? std::move(next.data) : fresh_buffer();
    return taken;
  }

  static std::unique_ptr<char[], sluice::detail::free_deleter> fresh_buffer() {
    return plain()->allocate(capacity).data;
  }

  std::string on_disk() const { return read_all(path_); }

  // What `engine` reports of its failure, as write_behind collects it.
  static write_behind::failed_writes failure_of(const write_behind& engine) {
    write_behind::failed_writes failed;
    engine.collect_failure(failed);
    return failed;
  }

  std::filesystem::path path_ = dir / "out";
  fake_sys fake_;
  sluice::detail::buffered_file file_;
  const std::string model_ = pattern(64 * capacity);
  std::unique_ptr<char[], sluice::detail::free_deleter> current_ = fresh_buffer();
  std::uint64_t queued_ = 0;
  std::vector<std::uint64_t> offsets_;  // of each buffer queued
};

class engines : public engine_test, public ::testing::WithParamInterface<engine_kind> {
 protected:
  bool threaded() const { return GetParam() == engine_kind::thread; }
  // Either engine; the ring performs its writes only when waited on, newest
  // first, so that later buffers land before earlier ones.
  std::unique_ptr<write_behind> start(std::size_t depth) {
    if (threaded()) return thread_engine(depth);
    return uring_engine(depth, {.deferred = true, .newest_first = true});
  }
  // The offset of each write that reached the OS (the thread's pwritevs) or
  // the ring (its submissions), in order.
  std::vector<std::uint64_t> write_offsets() const {
    std::vector<std::uint64_t> out;
    if (threaded())
      for (const auto& record : fake_.writes_at()) out.push_back(record.offset);
    else
      for (const auto& record : fake_.async_submits()) out.push_back(record.offset);
    return out;
  }
};

TEST_P(engines, buffers_reach_the_file_whole_and_in_order) {
  auto engine = start(2);
  ASSERT_TRUE(engine);
  EXPECT_EQ(engine->kind(), threaded() ? sluice::write_behind_engine::thread
                                       : sluice::write_behind_engine::io_uring);
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(queue(*engine));
  EXPECT_TRUE(engine->wait());
  EXPECT_EQ(write_offsets(), offsets_);  // one write per buffer, in the order queued
  EXPECT_EQ(on_disk(), model_.substr(0, queued_));
  EXPECT_FALSE(failure_of(*engine).error);
  EXPECT_TRUE(failure_of(*engine).unwritten.empty());
}

// The second buffer is cut short after 10 bytes, then its rest fails with
// EIO; the first write waits until three buffers are queued, so that
// the failure has buffers queued behind it.
TEST_P(engines, a_failure_keeps_every_unwritten_byte_in_file_order) {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  bool hold_first = threaded();  // the ring writes nothing before it is waited on
  fake_.on_write_at([&](int nth, std::size_t requested) {
    if (nth == 1 && hold_first) released.wait_for(std::chrono::seconds(20));
    if (requested == size_of(1)) return transfer_action{transfer_action::partial, 0, 10};
    if (requested == size_of(1) - 10) return transfer_action{transfer_action::fail, EIO, 0};
    return transfer_action{};
  });
  const std::uint64_t failed_at = size_of(0) + 10;
  auto engine = start(3);
  ASSERT_TRUE(engine);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(queue(*engine));
  release.set_value();
  for (int i = 0; i < 3 && queue(*engine);) ++i;  // until the failure is found
  EXPECT_FALSE(engine->wait());
  EXPECT_FALSE(queue(*engine));  // a failed engine takes the buffer and returns none

  auto failed = failure_of(*engine);
  EXPECT_EQ(failed.offset, failed_at);
  auto e = thrown<sluice::write_error>([&] { std::rethrow_exception(failed.error); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_EQ(e->offset(), failed_at);
  std::string unwritten;
  for (auto piece : failed.unwritten) unwritten.append(piece.data(), piece.size());
  EXPECT_EQ(unwritten, model_.substr(failed_at, queued_ - failed_at));
  // Writes that landed past the failure were cut back.
  EXPECT_EQ(on_disk(), model_.substr(0, failed_at));
  if (threaded()) {
    EXPECT_EQ(fake_.writes_at().size(), 3u);  // nothing written after the failure
  }
}

INSTANTIATE_TEST_SUITE_P(write_behind_engines, engines,
                         ::testing::Values(engine_kind::thread, engine_kind::io_uring),
                         [](const auto& info) {
                           return info.param == engine_kind::thread ? "thread" : "io_uring";
                         });

using uring_engine_test = engine_test;

TEST_F(uring_engine_test, at_most_depth_writes_are_in_flight) {
  auto engine = uring_engine(3, {.deferred = true});
  ASSERT_TRUE(engine);
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(queue(*engine));
  EXPECT_TRUE(engine->wait());
  std::size_t most = 0;
  for (const auto& write : fake_.async_submits()) most = std::max(most, write.in_flight);
  EXPECT_EQ(most, 3u);
  EXPECT_EQ(on_disk(), model_.substr(0, queued_));
}

using thread_engine_test = engine_test;

#ifndef _WIN32
// While the first write is held, `depth` buffers are taken at once; the
// next queue() returns only once that write is over. The write is let go
// when the caller sleeps in queue(), or once it has returned (a
// wrong engine, which the test then reports).
TEST_F(thread_engine_test, queue_waits_while_depth_buffers_are_queued) {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  fake_.on_write_at([&](int nth, std::size_t) {
    if (nth == 1) released.wait_for(std::chrono::seconds(20));
    return transfer_action{};
  });
  auto engine = thread_engine(2);
  ASSERT_TRUE(queue(*engine));
  ASSERT_TRUE(queue(*engine));
  std::atomic<bool> returned{false};
  std::atomic<bool> let_go{false};
  std::thread watcher([&, caller = ::gettid()] {
    while (!returned && !asleep(caller)) sched_yield();
    let_go = true;
    release.set_value();
  });
  bool taken = queue(*engine);
  bool waited = let_go;
  returned = true;
  watcher.join();
  EXPECT_TRUE(taken);
  EXPECT_TRUE(waited);
  EXPECT_TRUE(engine->wait());
  EXPECT_EQ(on_disk(), model_.substr(0, queued_));
}
#else
SLUICE_SKIPPED_ON_WINDOWS_F(thread_engine_test, queue_waits_while_depth_buffers_are_queued,
                            "sees a thread asleep in /proc/self/task (gettid)")
#endif

}  // namespace
