// Process kill: a child process commits records and reports each
// acknowledged lsn through a pipe; the parent kills it with SIGKILL at a
// random moment, reopens the journal and checks that the log is a clean
// prefix of what was appended holding every acknowledged record. Many rounds
// on the same journal, each child going on from where the last one died.
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <mutex>
#include <random>
#include <sluice/sluice.hpp>
#include <thread>
#include <vector>

#include "support/journal_test_support.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::journal;

using journal_kill = dir_test;

constexpr sluice::journal_options kill_options{.segment_size = 16 * 1024};

// The child: two threads commit records whose bytes depend only on their
// lsn, each acknowledged lsn goes down `pipe_fd`. Never returns.
[[noreturn]] void child(const std::filesystem::path& dir, int pipe_fd) {
  try {
    auto log = journal::open(dir, kill_options);
    std::mutex append_order;
    auto work = [&] {
      for (int i = 0; i < 20000; ++i) {
        std::uint64_t lsn;
        {
          std::lock_guard lock(append_order);
          std::uint64_t next = log.next_lsn();
          lsn = log.append(bytes_of(payload(next)));
        }
        log.commit(lsn);
        if (::write(pipe_fd, &lsn, sizeof lsn) != sizeof lsn) ::_exit(3);
      }
    };
    std::thread other(work);
    work();
    other.join();
    ::pause();  // wait for the kill
  } catch (const std::exception& e) {
    std::cerr << "child: " << e.what() << '\n';
  }
  ::_exit(2);
}

// Reads acknowledged lsns from `fd` until `deadline` (or the end of the
// pipe if deadline is empty); returns the largest seen so far.
std::uint64_t drain(int fd, std::uint64_t largest,
                    std::optional<std::chrono::steady_clock::time_point> deadline) {
  std::uint64_t buffer[512];
  std::size_t carried = 0;  // bytes of a partial lsn left from the last read
  char* bytes = reinterpret_cast<char*>(buffer);
  for (;;) {
    int timeout = -1;
    if (deadline) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          *deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return largest;
      timeout = static_cast<int>(left.count());
    }
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, timeout) == 0) continue;
    ssize_t n = ::read(fd, bytes + carried, sizeof buffer - carried);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return largest;
    std::size_t total = carried + static_cast<std::size_t>(n);
    for (std::size_t i = 0; i < total / 8; ++i) largest = std::max(largest, buffer[i]);
    carried = total % 8;
    std::memmove(bytes, bytes + total - carried, carried);
  }
}

TEST_F(journal_kill, sigkill_at_random_moments_loses_no_acknowledged_record) {
  std::mt19937_64 random(42);
  std::uint64_t acknowledged = 0;
  constexpr int rounds = 25;
  for (int round = 0; round < rounds; ++round) {
    auto [pid, from_child] = fork_child([&](int acks) { child(dir / "log", acks); });
    ASSERT_GE(pid, 0);
    auto lifetime = std::chrono::milliseconds(2 + random() % 40);
    acknowledged = drain(from_child, acknowledged, std::chrono::steady_clock::now() + lifetime);
    ::kill(pid, SIGKILL);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
        << "round " << round << ": the child died on its own, status " << status;
    acknowledged = drain(from_child, acknowledged, std::nullopt);
    ::close(from_child);

    auto log = journal::open(dir / "log", kill_options);
    auto records = read_records(log);
    ASSERT_GE(records.size(), acknowledged) << "round " << round;
    for (std::size_t i = 0; i < records.size(); ++i)
      ASSERT_EQ(records[i], (read_record{i + 1, payload(i + 1)})) << "round " << round;
    log.close();
  }
  std::cout << "[ kill     ] " << rounds << " rounds, " << acknowledged
            << " records acknowledged\n";
  EXPECT_GT(acknowledged, 0u);
}

}  // namespace
