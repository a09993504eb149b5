// How sluice::journal's leaders take turns. With overlapping syncs
// (journal_options::concurrent_syncs = 2): while one leader's fdatasync is held in a gate, the next
// committer writes and syncs its own batch, on another descriptor; a move to a new segment waits
// for the held sync; a failure of the held sync still poisons the journal. With one sync at a
// time: the next leader waits for the held sync, then a little for the committer that sync let
// return, so that its next record joins the batch, and no longer if it does not come back. The
// gate is a system-call table of its own (fake_sys runs calls one at a time, which would serialize
// the very overlap under test).
#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <functional>
#include <future>
#include <sluice/sluice.hpp>
#include <string>
#include <thread>
#include <vector>

#include "os/sys.hpp"
#include "support/journal_test_support.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::journal;

using journal_pipeline = dir_test;

const sluice::journal_options two_syncs{.concurrent_syncs = 2};

// Holds the first fdatasync made while it is installed until release(),
// then lets it return `held_result` (0, or -1 with that errno). The hold is
// bounded so that a journal that wrongly waits for it fails the test instead
// of hanging it. Records which descriptors synced and whether a segment was
// created while the hold lasted.
class sync_gate {
 public:
  explicit sync_gate(int held_errno = 0) : held_errno_(held_errno) {
    active_ = this;
    table_ = sluice::detail::real_sys();
    table_.sync_data = sync_data_entry;
    table_.open = open_entry;
    sluice::detail::set_sys(&table_);
  }
  sync_gate(const sync_gate&) = delete;
  sync_gate& operator=(const sync_gate&) = delete;
  ~sync_gate() {
    sluice::detail::set_sys(nullptr);
    active_ = nullptr;
  }

  // Waits (bounded) until the first fdatasync is being held.
  bool wait_until_held() {
    return held_.get_future().wait_for(std::chrono::seconds(20)) == std::future_status::ready;
  }
  void release() { release_.set_value(); }

  bool holding() const { return holding_; }
  int syncs() const { return syncs_; }
  // The handle the held sync was on; whether another sync ran while it was
  // held, and on which handle.
  sluice::detail::handle held_fd() const { return held_fd_; }
  bool other_synced() const { return other_synced_; }
  sluice::detail::handle other_fd() const { return other_fd_; }
  bool created_segment_while_held() const { return created_while_held_; }

 private:
  static int sync_data_entry(sluice::detail::handle fd) {
    sync_gate& gate = *active_;
    if (gate.syncs_.fetch_add(1) != 0) {
      if (gate.holding_) {
        gate.other_fd_ = fd;
        gate.other_synced_ = true;
      }
      return sluice::detail::real_sys().sync_data(fd);
    }
    gate.held_fd_ = fd;
    gate.holding_ = true;
    gate.held_.set_value();
    gate.released_.wait_for(std::chrono::seconds(20));
    int result = sluice::detail::real_sys().sync_data(fd);
    gate.holding_ = false;
    if (gate.held_errno_ == 0) return result;
    errno = gate.held_errno_;
    return -1;
  }
  static sluice::detail::handle open_entry(sluice::detail::handle dir, const char* path,
                                           const sluice::detail::open_request& how) {
    sync_gate& gate = *active_;
    if (gate.holding_ && std::string_view(path).ends_with(".tmp")) gate.created_while_held_ = true;
    return sluice::detail::real_sys().open(dir, path, how);
  }

  static inline sync_gate* active_ = nullptr;
  sluice::detail::sys_table table_;
  const int held_errno_;
  std::atomic<int> syncs_{0};
  std::atomic<bool> holding_{false};
  std::atomic<sluice::detail::handle> held_fd_{};
  std::atomic<bool> other_synced_{false};
  std::atomic<sluice::detail::handle> other_fd_{};
  std::atomic<bool> created_while_held_{false};
  std::promise<void> held_;
  std::promise<void> release_;
  std::shared_future<void> released_ = release_.get_future().share();
};

TEST_F(journal_pipeline, a_committer_does_not_wait_for_a_sync_that_began_before_its_write) {
  auto log = journal::open(dir.path(), two_syncs);
  sync_gate gate;
  std::thread first([&] { log.write(bytes_of(payload(1))); });
  ASSERT_TRUE(gate.wait_until_held());
  log.write(bytes_of(payload(2)));
  bool returned_while_held = gate.holding();
  gate.release();
  first.join();
  EXPECT_TRUE(returned_while_held) << "the second commit waited for the first sync";
  EXPECT_TRUE(gate.other_synced());
  EXPECT_NE(gate.other_fd(), gate.held_fd()) << "two syncs in flight on one descriptor";
  log.close();
  auto reopened = journal::open(dir.path());
  EXPECT_EQ(read_records(reopened), (std::vector<read_record>{{1, payload(1)}, {2, payload(2)}}));
}

TEST_F(journal_pipeline, a_move_to_a_new_segment_waits_for_the_sync_in_flight) {
  auto log = journal::open(dir.path(), {.segment_size = 4096, .concurrent_syncs = 2});
  std::string big(3000, 'a');  // two of them do not fit one segment
  sync_gate gate;
  std::thread first([&] { log.write(bytes_of(big)); });
  ASSERT_TRUE(gate.wait_until_held());
  std::thread second([&] { log.write(bytes_of(std::string(3000, 'b'))); });
  // Gives a journal that would rotate under the held sync the time to do it.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  gate.release();
  first.join();
  second.join();
  EXPECT_FALSE(gate.created_segment_while_held());
  log.close();
  auto reopened = journal::open(dir.path());
  EXPECT_EQ(read_records(reopened),
            (std::vector<read_record>{{1, big}, {2, std::string(3000, 'b')}}));
  EXPECT_EQ(segment_files(dir.path()).size(), 2u);
}

TEST_F(journal_pipeline, a_failed_sync_poisons_even_while_another_succeeds) {
  auto log = journal::open(dir.path(), two_syncs);
  sync_gate gate(EIO);
  auto first = std::async(std::launch::async,
                          [&] { return thrown([&] { log.write(bytes_of(payload(1))); }); });
  ASSERT_TRUE(gate.wait_until_held());
  log.write(bytes_of(payload(2)));  // its own sync succeeds
  gate.release();
  auto e = first.get();
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  e = thrown([&] { log.append(bytes_of("more")); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_TRUE(thrown([&] { log.close(); }));
}

// The fourth fdatasync takes a while, then fails, while other leaders write
// and sync: the journal is poisoned by that failure (no data race between
// the failing sync and the next leader's write: TSan runs this too).
TEST_F(journal_pipeline, a_sync_failing_while_the_next_leader_writes_poisons_with_its_error) {
  auto log = journal::open(dir.path(), two_syncs);
  static std::atomic<int> syncs{0};
  syncs = 0;
  sluice::detail::sys_table table = sluice::detail::real_sys();
  table.sync_data = [](sluice::detail::handle fd) {
    if (syncs.fetch_add(1) != 3) return sluice::detail::real_sys().sync_data(fd);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    errno = EIO;
    return -1;
  };
  sluice::detail::set_sys(&table);
  std::atomic<int> failures{0};
  std::vector<std::thread> committers;
  for (int t = 0; t < 4; ++t)
    committers.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        auto e = thrown([&] { log.write(bytes_of(payload(t * 100 + i))); });
        if (!e) continue;
        ++failures;
        EXPECT_EQ(e->code().value(), EIO) << e->what();
        return;
      }
    });
  for (auto& committer : committers) committer.join();
  auto e = thrown([&] { log.append(bytes_of("more")); });
  sluice::detail::set_sys(nullptr);
  EXPECT_GE(failures.load(), 1);
  ASSERT_TRUE(e);
  EXPECT_NE(std::string(e->what()).find("fdatasync"), std::string::npos) << e->what();
  EXPECT_TRUE(thrown([&] { log.close(); }));
}

// With the default of one sync at a time, the next committer waits for the
// held sync and then leads: its write comes after the held sync returned.
TEST_F(journal_pipeline, by_default_the_next_committer_waits_for_the_sync_in_flight) {
  auto log = journal::open(dir.path());
  sync_gate gate;
  std::thread first([&] { log.write(bytes_of(payload(1))); });
  ASSERT_TRUE(gate.wait_until_held());
  std::atomic<bool> second_done{false};
  std::thread second([&] {
    log.write(bytes_of(payload(2)));
    second_done = true;
  });
  // Gives a journal that would not wait the time to finish the second commit.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  bool done_while_held = second_done;
  gate.release();
  first.join();
  second.join();
  EXPECT_FALSE(done_while_held);
  EXPECT_FALSE(gate.other_synced()) << "a second sync ran beside the held one";
}

// The gate's held sync takes long next to the work before it, so the next
// leader may wait for up to a quarter of that (commit.cpp, gather_share) for
// its committer to return.
constexpr auto long_sync = std::chrono::milliseconds(400);

// A journal that has synced once: a leader weighs the newest sync against
// the work before it, and the first has nothing before it.
journal journal_past_its_first_sync(const std::filesystem::path& dir) {
  auto log = journal::open(dir);
  log.write(bytes_of(payload(0)));
  return log;
}

// Starts a commit of payload 1 whose sync the gate holds, then a second
// committer of payload 2 that sleeps until it; releases the held sync after
// long_sync. Returns the second committer.
std::thread two_committers_and_a_long_sync(journal& log, sync_gate& gate, std::thread& first,
                                           std::function<void()> first_then) {
  first = std::thread([&log, then = std::move(first_then)] {
    log.write(bytes_of(payload(1)));
    then();
  });
  EXPECT_TRUE(gate.wait_until_held());
  std::thread second([&log] { log.write(bytes_of(payload(2))); });
  while (log.next_lsn() < 4) std::this_thread::yield();
  std::this_thread::sleep_for(long_sync);  // the second committer is asleep in commit by then
  gate.release();
  return second;
}

// The thread the held sync lets return commits again at once: its record
// joins the next leader's batch, which the next sync makes durable with
// payload 2. Without the wait the second committer leads alone and payload
// 3 needs a sync of its own.
TEST_F(journal_pipeline, the_next_leader_waits_for_the_committer_the_last_sync_let_return) {
  auto log = journal_past_its_first_sync(dir.path());
  sync_gate gate;
  std::thread first;
  std::thread second = two_committers_and_a_long_sync(log, gate, first, [&] {
    // Long enough for a leader that does not wait to have taken payload 2
    // alone; well within the quarter of long_sync a waiting one gives.
    std::this_thread::sleep_for(long_sync / 40);
    log.write(bytes_of(payload(3)));
  });
  first.join();
  second.join();
  EXPECT_EQ(gate.syncs(), 2) << "payloads 2 and 3 were synced apart";
  log.close();
  auto reopened = journal::open(dir.path());
  EXPECT_EQ(read_records(reopened),
            (std::vector<read_record>{
                {1, payload(0)}, {2, payload(1)}, {3, payload(2)}, {4, payload(3)}}));
}

// The thread the held sync lets return does not commit again: the next
// leader waits for it only a while, then makes payload 2 durable.
TEST_F(journal_pipeline, the_next_leader_does_not_wait_for_a_committer_that_does_not_return) {
  auto log = journal_past_its_first_sync(dir.path());
  sync_gate gate;
  std::promise<void> leave;
  std::thread first;
  std::thread second =
      two_committers_and_a_long_sync(log, gate, first, [done = leave.get_future().share()] {
        done.wait_for(std::chrono::seconds(30));  // neither returns nor commits meanwhile
      });
  auto second_done = std::async(std::launch::async, [&] { second.join(); });
  bool led_without_it = second_done.wait_for(std::chrono::seconds(20)) == std::future_status::ready;
  leave.set_value();
  first.join();
  if (!led_without_it) {  // a commit lets a leader that waits for one go, and the test end
    log.write(bytes_of(payload(3)));
    second_done.wait();
  }
  ASSERT_TRUE(led_without_it) << "the next leader waited for a committer that never came back";
  EXPECT_EQ(gate.syncs(), 2);
  log.close();
  auto reopened = journal::open(dir.path());
  EXPECT_EQ(read_records(reopened),
            (std::vector<read_record>{{1, payload(0)}, {2, payload(1)}, {3, payload(2)}}));
}

TEST_F(journal_pipeline, concurrent_syncs_other_than_1_or_2_are_refused) {
  for (unsigned n : {0u, 3u}) {
    auto e = thrown([&] { journal::open(dir.path(), {.concurrent_syncs = n}); });
    ASSERT_TRUE(e) << n;
    EXPECT_EQ(e->code().value(), EINVAL);
    EXPECT_NE(std::string(e->what()).find("concurrent_syncs"), std::string::npos) << e->what();
  }
}

}  // namespace
