// The Linux backend of the platform seam, entry by entry where an entry
// does more than forward one call: the open options, directory listing,
// the open state, the sequential hint, draining the async queue.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "os/sys.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::detail::open_request;
using access = open_request::access;

const sluice::detail::sys_table& backend() { return sluice::detail::real_sys(); }

// The descriptor flags (F_GETFD) and open flags (F_GETFL) of what `how`
// opens at `path` (relative to `dir`'s directory), closed again.
struct opened_flags {
  int descriptor = -1;
  int status = -1;
};

opened_flags open_and_look(const std::filesystem::path& path, const open_request& how) {
  int fd = backend().open(sluice::detail::working_directory, path.c_str(), how);
  if (fd < 0) return {};
  opened_flags flags{::fcntl(fd, F_GETFD), ::fcntl(fd, F_GETFL)};
  ::close(fd);
  return flags;
}

using linux_sys = dir_test;

TEST_F(linux_sys, every_handle_it_opens_is_closed_on_exec) {
  write_all(dir / "f", "x");
  for (const open_request& how :
       {open_request{}, open_request{.mode = access::write, .append = true},
        open_request{.mode = access::read_write, .create = true, .permissions = 0600},
        open_request{.directory = true}, open_request{.mode = access::path_only},
        open_request{.mode = access::path_only, .no_follow = true}}) {
    bool directory = how.directory;
    opened_flags flags = open_and_look(directory ? dir.path() : dir / "f", how);
    ASSERT_NE(flags.descriptor, -1);
    EXPECT_TRUE(flags.descriptor & FD_CLOEXEC);
  }
  int fd =
      backend().open(sluice::detail::working_directory, dir.path().c_str(),
                     {.mode = access::read_write, .unnamed_temporary = true, .permissions = 0600});
  if (fd < 0) GTEST_SKIP() << "no O_TMPFILE here";
  EXPECT_TRUE(::fcntl(fd, F_GETFD) & FD_CLOEXEC);
  ::close(fd);
}

TEST_F(linux_sys, the_options_become_the_open_flags) {
  write_all(dir / "f", "x");
  opened_flags append = open_and_look(dir / "f", {.mode = access::write, .append = true});
  EXPECT_EQ(append.status & O_ACCMODE, O_WRONLY);
  EXPECT_TRUE(append.status & O_APPEND);
  opened_flags blocking = open_and_look(dir / "f", {.mode = access::read_write});
  EXPECT_EQ(blocking.status & O_ACCMODE, O_RDWR);
  EXPECT_FALSE(blocking.status & (O_APPEND | O_NONBLOCK));
  opened_flags non_blocking = open_and_look(dir / "f", {.non_blocking = true});
  EXPECT_EQ(non_blocking.status & O_ACCMODE, O_RDONLY);
  EXPECT_TRUE(non_blocking.status & O_NONBLOCK);
  EXPECT_EQ(open_and_look(dir / "f", {.mode = access::path_only}).status & O_PATH, O_PATH);
  EXPECT_EQ(open_and_look(dir / "f", {.directory = true}).status, -1) << "ENOTDIR";
  std::filesystem::create_symlink(dir / "f", dir / "link");
  EXPECT_EQ(open_and_look(dir / "link", {.no_follow = true}).status, -1) << "ELOOP";
  EXPECT_EQ(open_and_look(dir / "f", {.create = true, .exclusive = true}).status, -1) << "EEXIST";
  opened_flags truncated = open_and_look(dir / "f", {.mode = access::write, .truncate = true});
  EXPECT_NE(truncated.status, -1);
  EXPECT_EQ(read_all(dir / "f"), "");
}

TEST_F(linux_sys, state_reads_and_sets_what_the_handle_was_opened_with) {
  write_all(dir / "f", "x");
  int fd = backend().open(sluice::detail::working_directory, (dir / "f").c_str(),
                          {.mode = access::write, .append = true, .non_blocking = true});
  ASSERT_GE(fd, 0);
  sluice::detail::handle_state state;
  ASSERT_EQ(backend().state(fd, &state), 0);
  EXPECT_TRUE(state.append);
  EXPECT_TRUE(state.non_blocking);
  EXPECT_FALSE(state.direct);
  ASSERT_EQ(backend().set_state(fd, {}), 0);
  ASSERT_EQ(backend().state(fd, &state), 0);
  EXPECT_FALSE(state.append);
  EXPECT_FALSE(state.non_blocking);
  ::close(fd);
}

// posix_fadvise returns its error rather than setting errno: the entry
// turns it into -1 and errno, ESPIPE on a pipe.
TEST_F(linux_sys, advise_sequential_hints_a_file_and_refuses_a_pipe_with_espipe) {
  write_all(dir / "f", "x");
  int fd = backend().open(sluice::detail::working_directory, (dir / "f").c_str(), {});
  ASSERT_GE(fd, 0);
  EXPECT_EQ(backend().advise_sequential(fd), 0);
  ::close(fd);
  pipe_ends ends;
  errno = 0;
  EXPECT_EQ(backend().advise_sequential(ends.read_end()), -1);
  EXPECT_EQ(errno, ESPIPE);
}

// Names of every length, enough of them to take several calls.
TEST_F(linux_sys, list_directory_gives_every_name_once_each_ended_by_a_nul) {
  std::vector<std::string> made;
  for (int i = 0; i < 3000; ++i) {
    made.push_back(std::string(static_cast<std::size_t>(1 + i % 200), 'a') + std::to_string(i));
    write_all(dir / made.back(), "");
  }
  int fd =
      backend().open(sluice::detail::working_directory, dir.path().c_str(), {.directory = true});
  ASSERT_GE(fd, 0);
  std::vector<std::string> listed;
  std::vector<char> names(32 * 1024);
  int calls = 0;
  for (ssize_t n; (n = backend().list_directory(fd, names.data(), names.size())) > 0; ++calls) {
    ASSERT_EQ(names[static_cast<std::size_t>(n) - 1], '\0');
    for (std::size_t at = 0; at < static_cast<std::size_t>(n);) {
      listed.emplace_back(names.data() + at);
      at += listed.back().size() + 1;
    }
  }
  ::close(fd);
  EXPECT_GT(calls, 1);
  made.push_back(".");
  made.push_back("..");
  std::sort(made.begin(), made.end());
  std::sort(listed.begin(), listed.end());
  EXPECT_EQ(listed, made);
}

// async_drain returns once every write submitted is over, with none of
// their completions consumed; the queue then closes with nothing under way.
TEST_F(linux_sys, async_drain_waits_for_every_write_submitted) {
  sluice::detail::async_queue* queue = nullptr;
  if (backend().async_open(4, &queue) != 0) GTEST_SKIP() << "no io_uring here";
  auto path = dir / "out";
  int fd = backend().open(sluice::detail::working_directory, path.c_str(),
                          {.mode = access::write, .create = true, .permissions = 0600});
  ASSERT_GE(fd, 0);
  std::string model = pattern(3 * 4096);
  for (std::uint64_t i = 0; i < 3; ++i)
    ASSERT_EQ(backend().async_submit(queue, fd, model.data() + i * 4096, 4096,
                                     static_cast<std::int64_t>(i * 4096), -1, i),
              0);
  EXPECT_EQ(backend().async_drain(queue), 0);
  EXPECT_EQ(read_all(path), model);
  backend().async_close(queue);
  ::close(fd);
}

// /dev/shm is tmpfs wherever it exists; /proc is none of the filesystems
// sluice adapts to.
TEST(linux_sys_filesystem, names_the_filesystem_a_handle_is_on) {
  using sluice::detail::filesystem;
  auto on = [](const char* path) {
    int fd = backend().open(sluice::detail::working_directory, path, {.directory = true});
    EXPECT_GE(fd, 0) << path;
    filesystem which = filesystem::ext4;
    EXPECT_EQ(backend().filesystem_of(fd, &which), 0) << path;
    ::close(fd);
    return which;
  };
  EXPECT_EQ(on("/proc"), filesystem::other);
  if (std::filesystem::is_directory("/dev/shm")) {
    EXPECT_EQ(on("/dev/shm"), filesystem::tmpfs);
  }
  // And the one the tests run on, whichever it is, by statfs's own answer.
  auto tmp = std::filesystem::temp_directory_path();
  struct statfs fs {};
  ASSERT_EQ(::statfs(tmp.c_str(), &fs), 0);
  const std::pair<long, filesystem> known[] = {{EXT4_SUPER_MAGIC, filesystem::ext4},
                                               {XFS_SUPER_MAGIC, filesystem::xfs},
                                               {BTRFS_SUPER_MAGIC, filesystem::btrfs},
                                               {TMPFS_MAGIC, filesystem::tmpfs}};
  filesystem expected = filesystem::other;
  for (auto [magic, which] : known)
    if (static_cast<long>(fs.f_type) == magic) expected = which;
  EXPECT_EQ(on(tmp.c_str()), expected) << tmp << " has magic " << std::hex << fs.f_type;
}

}  // namespace
