// What every POSIX backend of the platform seam (linux_sys.cpp,
// posix_sys.cpp) does alike, entry by entry where an entry does more than
// forward one call: the open options, directory listing, the open state,
// the sequential hint. Each test runs on the build's own table and, in the
// Linux build, on the portable one too. Each backend's own entries:
// linux_sys_test.cpp, posix_sys_test.cpp.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "os/posix_calls.hpp"
#include "os/sys.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::detail::open_request;
using access = open_request::access;

// The table under test (the fixture sets it from its parameter).
const sluice::detail::sys_table* tested = nullptr;
const sluice::detail::sys_table& backend() { return *tested; }

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

class backend_sys : public dir_test,
                    public ::testing::WithParamInterface<const sluice::detail::sys_table*> {
 protected:
  void SetUp() override { tested = GetParam(); }
};

INSTANTIATE_TEST_SUITE_P(real, backend_sys, ::testing::Values(&sluice::detail::real_sys()));
#ifndef SLUICE_BACKEND_POSIX
constexpr sluice::detail::sys_table portable = sluice::detail::posix::table();
INSTANTIATE_TEST_SUITE_P(portable, backend_sys, ::testing::Values(&portable));
#endif

TEST_P(backend_sys, every_handle_it_opens_is_closed_on_exec) {
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
}

TEST_P(backend_sys, the_options_become_the_open_flags) {
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
#ifdef O_PATH
  EXPECT_EQ(open_and_look(dir / "f", {.mode = access::path_only}).status & O_PATH, O_PATH);
#endif
  EXPECT_EQ(open_and_look(dir / "f", {.directory = true}).status, -1) << "ENOTDIR";
  std::filesystem::create_symlink(dir / "f", dir / "link");
  EXPECT_EQ(open_and_look(dir / "link", {.no_follow = true}).status, -1) << "ELOOP";
  EXPECT_EQ(open_and_look(dir / "f", {.create = true, .exclusive = true}).status, -1) << "EEXIST";
  opened_flags truncated = open_and_look(dir / "f", {.mode = access::write, .truncate = true});
  EXPECT_NE(truncated.status, -1);
  EXPECT_EQ(read_all(dir / "f"), "");
}

TEST_P(backend_sys, state_reads_and_sets_what_the_handle_was_opened_with) {
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
TEST_P(backend_sys, advise_sequential_hints_a_file_and_refuses_a_pipe_with_espipe) {
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
TEST_P(backend_sys, list_directory_gives_every_name_once_each_ended_by_a_nul) {
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

}  // namespace
