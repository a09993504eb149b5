// One writer at a time: journal::open locks the directory, a second writer
// or a reader beside a writer is refused at once, naming the holder, and
// the lock ends with the process that holds it, SIGKILL included. Read-only
// journals share the directory with each other and change nothing on disk.
// Segments that are not regular files are refused without blocking.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <functional>
#include <future>
#include <map>
#include <sluice/sluice.hpp>
#include <string>
#include <thread>
#include <vector>

#include "support/fake_sys.hpp"
#include "support/journal_test_support.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::journal;
using sluice::journal_options;

using journal_lock = dir_test;
using journal_read_only = dir_test;
using journal_segment_type = dir_test;

constexpr journal_options read_only{.read_only = true};

// The error journal::open(dir, options) throws (none if it opens).
std::optional<std::system_error> open_error(const std::filesystem::path& dir,
                                            journal_options options = {}) {
  return thrown([&] { journal::open(dir, options).close(); });
}

// Every name in `dir` with its content: what a read-only open must leave.
std::map<std::string, std::string> snapshot(const std::filesystem::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    files[entry.path().filename()] = read_all(entry.path());
  return files;
}

TEST_F(journal_lock, a_second_writer_in_the_same_process_is_refused_at_once_naming_it) {
  auto first = journal::open(dir / "log");
  auto error = open_error(dir / "log");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code().value(), EWOULDBLOCK);
  std::string what = error->what();
  EXPECT_NE(what.find("sluice: open journal " + quoted(dir / "log")), std::string::npos) << what;
  EXPECT_NE(what.find("open for writing in process " + std::to_string(::getpid()) +
                      " (this process, or a child it forked"),
            std::string::npos)
      << what;
  first.write(bytes_of("still the first writer's"));
  first.close();
  auto second = journal::open(dir / "log");  // the lock went with close()
  EXPECT_EQ(read_records(second), (std::vector<read_record>{{1, "still the first writer's"}}));
}

TEST_F(journal_lock, the_lock_moves_with_the_journal_and_ends_with_its_destruction) {
  std::optional<journal> kept;
  {
    auto opened = journal::open(dir / "log");
    kept.emplace(std::move(opened));
  }
  EXPECT_TRUE(open_error(dir / "log"));
  kept.reset();
  EXPECT_FALSE(open_error(dir / "log"));
}

TEST_F(journal_lock, a_failed_lock_other_than_a_holder_is_reported_as_it_is) {
  fake_sys fake;
  fake.fail(call::lock, 1, ENOLCK);
  auto error = open_error(dir / "log");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code().value(), ENOLCK);
  EXPECT_NE(std::string(error->what()).find("lock journal " + quoted(dir / "log")),
            std::string::npos)
      << error->what();
}

TEST_F(journal_lock, a_holder_not_in_proc_locks_is_still_refused_with_a_clear_message) {
  fake_sys fake;
  fake.fail(call::lock, 1, EWOULDBLOCK);  // no real lock: /proc/locks names nobody
  auto error = open_error(dir / "log");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code().value(), EWOULDBLOCK);
  EXPECT_NE(std::string(error->what()).find("open elsewhere"), std::string::npos) << error->what();
}

// The Linux backend, but with every file's status reporting another device
// number than its filesystem's, as btrfs does (its subvolume's), while
// /proc/locks names files by their filesystem's.
class device_of_a_subvolume {
 public:
  device_of_a_subvolume() : table_(sluice::detail::real_sys()) {
    table_.facts = [](int fd, sluice::detail::file_facts* out) {
      int result = sluice::detail::real_sys().facts(fd, out);
      out->device = makedev(major(out->device) + 1, minor(out->device) + 1);
      return result;
    };
    sluice::detail::set_sys(&table_);
  }
  device_of_a_subvolume(const device_of_a_subvolume&) = delete;
  device_of_a_subvolume& operator=(const device_of_a_subvolume&) = delete;
  ~device_of_a_subvolume() { sluice::detail::set_sys(nullptr); }

 private:
  sluice::detail::sys_table table_;
};

TEST_F(journal_lock, the_holder_is_named_where_a_file_reports_another_device_than_its_filesystem) {
  device_of_a_subvolume btrfs_like;
  auto first = journal::open(dir / "log");
  auto error = open_error(dir / "log");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code().value(), EWOULDBLOCK);
  EXPECT_NE(
      std::string(error->what()).find("open for writing in process " + std::to_string(::getpid())),
      std::string::npos)
      << error->what();
  first.close();
}

// The child opens the journal, commits `records` records, says so through
// `ready` and waits to be killed. Never returns.
[[noreturn]] void hold_journal(const std::filesystem::path& dir, int ready, int records) {
  try {
    auto log = journal::open(dir);
    write_records(log, log.next_lsn(), log.next_lsn() + records - 1);
    char done = 1;
    if (::write(ready, &done, 1) != 1) ::_exit(3);
    for (;;) ::pause();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "child: %s\n", e.what());
  }
  ::_exit(2);
}

TEST_F(journal_lock, a_writer_killed_with_sigkill_leaves_no_lock_behind) {
  for (int round = 0; round < 3; ++round) {
    auto [pid, from_child] = fork_child([&](int ready) { hold_journal(dir / "log", ready, 10); });
    ASSERT_GE(pid, 0);
    char ready = 0;
    ASSERT_EQ(::read(from_child, &ready, 1), 1) << "round " << round << ": the child failed";
    ::close(from_child);

    auto error = open_error(dir / "log");
    EXPECT_TRUE(error) << "round " << round << ": a second writer opened beside the first";
    if (error) {
      EXPECT_EQ(error->code().value(), EWOULDBLOCK);
      EXPECT_NE(std::string(error->what()).find("in process " + std::to_string(pid)),
                std::string::npos)
          << error->what();
    }
    EXPECT_TRUE(open_error(dir / "log", read_only)) << "round " << round;

    ::kill(pid, SIGKILL);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "status " << status;

    auto log = journal::open(dir / "log");  // no stale lock to clean up
    auto records = read_records(log);
    EXPECT_EQ(records, expected_records(1, 10 * (round + 1))) << "round " << round;
    log.close();
  }
}

// A child of fork() holds a copy of the parent's journal and shares its
// lock: it must not write through it (both would write the same tail), nor
// commit what the parent had appended when it forked; letting it go closes
// its descriptors only.
TEST_F(journal_lock, a_child_of_fork_cannot_use_the_parents_journal) {
  auto log = journal::open(dir / "log");
  write_records(log, 1, 3);
  log.append(bytes_of(payload(4)));  // pending when the child is made
  auto [pid, from_child] = fork_child([&](int report) {
    int code = 0;  // each check that fails sets a bit
    for (auto call : std::vector<std::function<void()>>{
             [&] { log.write(bytes_of("child")); }, [&] { log.commit(4); },
             [&] { log.read_from(1); }, [&] { log.next_lsn(); }}) {
      auto e = thrown(call);
      code = code * 2 + (e && e->code().value() == EBADF &&
                                 std::string(e->what()).find("before a fork()") != std::string::npos
                             ? 0
                             : 1);
    }
    try {
      log.close();  // only closes the child's descriptors
    } catch (...) {
      code |= 64;
    }
    char byte = static_cast<char>(code);
    (void)::write(report, &byte, 1);
    ::_exit(0);
  });
  ASSERT_GE(pid, 0);
  char result = -1;
  EXPECT_EQ(::read(from_child, &result, 1), 1);
  ::close(from_child);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_EQ(result, 0) << "bits of the checks the child failed: " << int(result);
  EXPECT_EQ(log.next_lsn(), 5u);
  log.commit(4);
  write_records(log, 5, 6);
  log.close();
  auto again = journal::open(dir / "log");
  EXPECT_EQ(read_records(again), expected_records(1, 6));
}

// The journal finds its files through the directory it opened, not its
// path: a journal directory renamed while open, and a new journal made at
// the old path, never write into each other.
TEST_F(journal_lock, a_directory_renamed_while_open_keeps_each_journal_to_itself) {
  journal_options small{.segment_size = 4096};
  auto first = journal::open(dir / "log", small);
  write_records(first, 1, 30);
  std::filesystem::rename(dir / "log", dir / "log.old");
  auto second = journal::open(dir / "log", small);  // a new journal at the old path
  std::vector<read_record> second_records;
  for (std::uint64_t i = 1; i <= 30; ++i) {
    std::string text = pattern(200, 1000 + i);
    second_records.push_back({second.write(bytes_of(text)), text});
  }
  write_records(first, 31, 60);  // rotates, creating segments
  first.truncate_before(40);     // removes segments
  first.close();
  second.close();
  auto old = journal::open(dir / "log.old", small);
  EXPECT_EQ(read_records(old, old.first_lsn()), expected_records(old.first_lsn(), 60));
  auto renewed = journal::open(dir / "log", small);
  EXPECT_EQ(read_records(renewed), second_records);
}

// The directory journal::open creates is its owner's only (0700): nobody
// else can read the records, nor hold the journal's lock to keep its
// writer out. Needs root, to be a second user.
TEST_F(journal_lock, another_user_can_neither_read_nor_lock_a_journal_it_made) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root, to act as a second user";
  scoped_umask umask(022);
  auto log = journal::open(dir / "log");
  write_records(log, 1, 3);
  EXPECT_EQ(std::filesystem::status(dir / "log").permissions(), std::filesystem::perms::owner_all);
  ::chmod(dir.path().c_str(), 0755);  // the parent lets others in
  auto [pid, from_child] = fork_child([&](int report) {
    char error = 0;
    if (::setgid(4242) != 0 || ::setuid(4242) != 0) {
      error = -1;
    } else {
      auto e = thrown([&] { journal::open(dir / "log", read_only); });
      error = static_cast<char>(e ? e->code().value() : 0);
    }
    (void)::write(report, &error, 1);
    ::_exit(0);
  });
  ASSERT_GE(pid, 0);
  char error = 0;
  EXPECT_EQ(::read(from_child, &error, 1), 1);
  ::close(from_child);
  ::waitpid(pid, nullptr, 0);
  EXPECT_EQ(error, EACCES);
  log.close();
}

// A lease on a segment (a file server's delegation, say) is broken, and
// waited for, as a blocking open would: the non-blocking open that refuses
// FIFOs must not turn it into an EWOULDBLOCK. The child holds a read lease
// and gives it up when the kernel asks (SIGIO), after a pause.
int leased_fd = -1;
void give_up_lease(int) {
  ::usleep(200 * 1000);
  ::fcntl(leased_fd, F_SETLEASE, F_UNLCK);
}

TEST_F(journal_lock, a_lease_on_a_segment_is_waited_for_not_reported) {
  journal::open(dir / "log").close();
  auto segment = segment_files(dir / "log").front();
  auto [pid, from_child] = fork_child([&](int ready) {
    ::signal(SIGIO, give_up_lease);
    leased_fd = ::open(segment.c_str(), O_RDONLY);
    char taken = ::fcntl(leased_fd, F_SETLEASE, F_RDLCK) == 0 ? 1 : 0;
    (void)::write(ready, &taken, 1);
    for (int i = 0; i < 100; ++i) ::usleep(100 * 1000);  // 10 s at most
    ::_exit(0);
  });
  ASSERT_GE(pid, 0);
  char taken = 0;
  ASSERT_EQ(::read(from_child, &taken, 1), 1);
  ::close(from_child);
  if (!taken) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    GTEST_SKIP() << "no lease could be taken here";
  }
  auto error = open_error(dir / "log");
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  EXPECT_FALSE(error) << error->what();
}

TEST_F(journal_read_only, readers_share_the_directory_but_never_with_a_writer) {
  journal::open(dir / "log").close();
  {
    auto writer = journal::open(dir / "log");
    auto error = open_error(dir / "log", read_only);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->code().value(), EWOULDBLOCK);
    EXPECT_NE(std::string(error->what()).find("open for writing"), std::string::npos)
        << error->what();
  }
  auto first = journal::open(dir / "log", read_only);
  auto second = journal::open(dir / "log", read_only);
  auto error = open_error(dir / "log");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code().value(), EWOULDBLOCK);
  EXPECT_NE(std::string(error->what()).find("open read-only in process"), std::string::npos)
      << error->what();
  first.close();
  EXPECT_TRUE(open_error(dir / "log"));  // the second reader still holds it
  second.close();
  EXPECT_FALSE(open_error(dir / "log"));
}

TEST_F(journal_read_only, reads_every_record_and_refuses_every_change) {
  {
    auto log = journal::open(dir / "log", {.segment_size = 4096});
    write_records(log, 1, 30);  // several segments
  }
  auto log = journal::open(dir / "log", {.segment_size = 4096, .read_only = true});
  EXPECT_EQ(read_records(log), expected_records(1, 30));
  EXPECT_EQ(log.next_lsn(), 31u);
  EXPECT_EQ(log.first_lsn(), 1u);
  for (auto [name, change] : std::vector<std::pair<const char*, std::function<void()>>>{
           {"append", [&] { log.append(bytes_of("x")); }},
           {"write", [&] { log.write(bytes_of("x")); }},
           {"truncate_before", [&] { log.truncate_before(20); }}}) {
    auto error = thrown(change);
    ASSERT_TRUE(error) << name;
    EXPECT_EQ(error->code().value(), EBADF) << name;
    EXPECT_NE(std::string(error->what()).find("opened read_only"), std::string::npos) << name;
  }
  EXPECT_EQ(thrown([&] { log.commit(31); })->code().value(), EINVAL);  // never appended
  EXPECT_EQ(read_records(log), expected_records(1, 30));
  log.close();
}

TEST_F(journal_read_only, recovery_changes_nothing_on_disk) {
  {
    auto log = journal::open(dir / "log", {.segment_size = 4096});
    write_records(log, 1, 60);
  }
  auto segments = segment_files(dir / "log");
  ASSERT_GE(segments.size(), 3u);
  write_all(dir / "log" / "00000000000000ff.journal.tmp", "a creation a crash interrupted");
  damage(segments[1], 64, 1, 'x');  // the middle segment's first record
  auto before = snapshot(dir / "log");
  {
    // salvage would rename the later segments to *.corrupt: not read-only
    auto log = journal::open(
        dir / "log",
        {.segment_size = 4096, .recovery = sluice::recovery_mode::salvage, .read_only = true});
    auto records = read_records(log);
    ASSERT_FALSE(records.empty());
    EXPECT_EQ(records, expected_records(1, records.size()));
    log.close();
  }
  EXPECT_EQ(open_error(dir / "log", read_only)->code().value(), EILSEQ);  // the default mode
  EXPECT_EQ(snapshot(dir / "log"), before);
}

TEST_F(journal_read_only, a_missing_directory_is_not_created_and_an_empty_one_has_no_records) {
  auto error = open_error(dir / "missing", read_only);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code().value(), ENOENT);
  EXPECT_FALSE(std::filesystem::exists(dir / "missing"));

  std::filesystem::create_directory(dir / "empty");
  auto log = journal::open(dir / "empty", read_only);
  EXPECT_EQ(log.first_lsn(), 1u);
  EXPECT_EQ(log.next_lsn(), 1u);
  EXPECT_TRUE(read_records(log).empty());
  log.close();
  EXPECT_TRUE(std::filesystem::is_empty(dir / "empty"));
}

// journal::open(dir, options) in a thread, given `seconds` to finish. A FIFO in a
// segment's place would block a plain open for reading until a writer came:
// if the open is still waiting then, the test opens the FIFO for writing
// itself to let it go, and fails.
std::optional<std::system_error> open_error_within(const std::filesystem::path& dir,
                                                   const std::filesystem::path& fifo, int seconds,
                                                   journal_options options = {}) {
  auto opening = std::async(std::launch::async, [&] { return open_error(dir, options); });
  if (opening.wait_for(std::chrono::seconds(seconds)) == std::future_status::ready)
    return opening.get();
  ADD_FAILURE() << "journal::open blocked on the FIFO " << fifo;
  int unblock = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
  auto result = opening.get();
  if (unblock >= 0) ::close(unblock);
  return result;
}

TEST_F(journal_segment_type, a_fifo_as_a_segment_is_refused_without_blocking) {
  {
    auto log = journal::open(dir / "log", {.segment_size = 4096});
    write_records(log, 1, 30);
  }
  for (const auto& segment :
       {segment_files(dir / "log").front(), segment_files(dir / "log").back()}) {
    std::string content = read_all(segment);
    std::filesystem::remove(segment);
    ASSERT_EQ(::mkfifo(segment.c_str(), 0600), 0);
    auto error = open_error_within(dir / "log", segment, 10);
    ASSERT_TRUE(error) << segment;
    EXPECT_EQ(error->code().value(), EINVAL);
    EXPECT_NE(
        std::string(error->what()).find(quoted(segment) + ": it is a FIFO, not a journal segment"),
        std::string::npos)
        << error->what();
    std::filesystem::remove(segment);
    write_all(segment, content);
  }
  auto log = journal::open(dir / "log", {.segment_size = 4096});
  EXPECT_EQ(read_records(log), expected_records(1, 30));
}

TEST_F(journal_segment_type, a_directory_or_a_symbolic_link_as_a_segment_is_refused) {
  journal::open(dir / "log").close();
  auto segment = segment_files(dir / "log").front();
  std::filesystem::remove(segment);
  std::filesystem::create_directory(segment);
  auto error = open_error(dir / "log");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code().value(), EINVAL);
  EXPECT_NE(std::string(error->what()).find("it is a directory"), std::string::npos)
      << error->what();

  std::filesystem::remove(segment);
  std::filesystem::create_symlink("/dev/zero", segment);  // would read as endless zeros
  error = open_error(dir / "log");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code().value(), EINVAL);
  EXPECT_NE(std::string(error->what()).find("it is a symbolic link, not a journal segment"),
            std::string::npos)
      << error->what();
}

// A spare that is not a regular file would be found only when the journal
// first rotates into it, and poison the journal then: refused at open.
TEST_F(journal_segment_type, a_spare_that_is_not_a_regular_file_is_refused_at_open) {
  journal_options reusing{.segment_size = 4096, .reuse_segments = true};
  {
    auto log = journal::open(dir / "log", reusing);
    write_records(log, 1, 60);
    log.truncate_before(40);
  }
  std::filesystem::path spare;
  for (const auto& entry : std::filesystem::directory_iterator(dir / "log"))
    if (entry.path().native().ends_with(".spare")) spare = entry.path();
  ASSERT_FALSE(spare.empty());
  std::filesystem::remove(spare);
  ASSERT_EQ(::mkfifo(spare.c_str(), 0600), 0);
  auto error = open_error_within(dir / "log", spare, 10, reusing);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code().value(), EINVAL);
  EXPECT_NE(std::string(error->what()).find(quoted(spare) + ": it is a FIFO"), std::string::npos)
      << error->what();
}

}  // namespace
