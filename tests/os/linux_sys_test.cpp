// The Linux backend of the platform seam, entry by entry where it does what
// other backends do not (backend_test.cpp has what they share): unnamed
// temporaries, draining the async queue, naming the filesystem.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>

#include "os/sys.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::detail::open_request;
using access = open_request::access;

const sluice::detail::sys_table& backend() { return sluice::detail::real_sys(); }

using linux_sys = dir_test;

TEST_F(linux_sys, an_unnamed_temporary_is_closed_on_exec) {
  int fd =
      backend().open(sluice::detail::working_directory, dir.path().c_str(),
                     {.mode = access::read_write, .unnamed_temporary = true, .permissions = 0600});
  if (fd < 0) GTEST_SKIP() << "no O_TMPFILE here";
  EXPECT_TRUE(::fcntl(fd, F_GETFD) & FD_CLOEXEC);
  ::close(fd);
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
