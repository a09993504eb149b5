// The portable POSIX backend of the platform seam (posix::table(), which
// posix_sys.cpp's real_sys() gives), against real files, entry by entry
// where it does what the Linux one does not (backend_test.cpp has what
// they share): its refusals and their errno, the gather transfers without
// pwritev/preadv, writeback, locks, mount points. In both builds.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <string>

#include "os/posix_calls.hpp"
#include "os/sys.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::detail::open_request;
using sluice::detail::space_mode;
using access = open_request::access;
namespace posix = sluice::detail::posix;

// The portable table, in the Linux build too (whose table starts from it).
constexpr sluice::detail::sys_table portable = posix::table();
const sluice::detail::sys_table& backend() { return portable; }

// The errno an entry's -1 came with; 0 if it did not fail.
template <class Result>
int refusal(Result result) {
  return result == -1 ? errno : 0;
}

class posix_sys : public dir_test {
 protected:
  // `name` in the test's directory, opened read-write (created).
  int open_file(const std::string& name, const std::string& content = "") {
    write_all(dir / name, content);
    int fd = backend().open(sluice::detail::working_directory, (dir / name).c_str(),
                            {.mode = access::read_write});
    EXPECT_GE(fd, 0) << name;
    return fd;
  }
};

TEST_F(posix_sys, refuses_unnamed_temporaries_so_that_named_ones_are_used) {
  int fd =
      backend().open(sluice::detail::working_directory, dir.path().c_str(),
                     {.mode = access::read_write, .unnamed_temporary = true, .permissions = 0600});
  EXPECT_EQ(refusal(fd), EOPNOTSUPP);
  EXPECT_EQ(refusal(backend().can_link_unnamed(0)), EOPNOTSUPP);
  EXPECT_EQ(refusal(backend().link_unnamed(0, 0, "x")), EOPNOTSUPP);
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{});
}

#ifndef F_NOCACHE
TEST_F(posix_sys, refuses_direct_with_einval_as_a_filesystem_without_o_direct_does) {
  int fd =
      backend().open(sluice::detail::working_directory, (dir / "f").c_str(),
                     {.mode = access::write, .create = true, .direct = true, .permissions = 0600});
  EXPECT_EQ(refusal(fd), EINVAL);
  EXPECT_FALSE(std::filesystem::exists(dir / "f")) << "refused before anything was created";
  int plain = open_file("g");
  EXPECT_EQ(refusal(backend().set_state(plain, {.direct = true})), EINVAL);
  ::close(plain);
}
#endif

// glibc's posix_fallocate writes a byte per block where the filesystem has
// no fallocate: "preallocated" would then mean "written". Elsewhere (the
// BSDs, musl) it grows the file for space_mode::grow.
TEST_F(posix_sys, preallocate_refuses_what_it_cannot_reserve_without_writing) {
  int fd = open_file("f");
  for (space_mode how : {space_mode::keep_size, space_mode::written_zeros})
    EXPECT_EQ(refusal(backend().preallocate(fd, 0, 1 << 20, how)), EOPNOTSUPP);
  int grown = backend().preallocate(fd, 0, 1 << 20, space_mode::grow);
#ifdef __GLIBC__
  EXPECT_EQ(refusal(grown), EOPNOTSUPP);
  EXPECT_EQ(size_on_disk(dir / "f"), 0u);
#else
  if (grown == 0)
    EXPECT_EQ(size_on_disk(dir / "f"), 1u << 20);
  else
    EXPECT_EQ(errno, EOPNOTSUPP);
#endif
  ::close(fd);
}

TEST_F(posix_sys, refuses_what_only_linux_filesystems_tell) {
  int fd = open_file("f", "data");
  std::uint64_t extents = 0;
  EXPECT_EQ(refusal(backend().count_extents(fd, &extents)), EOPNOTSUPP);
  EXPECT_EQ(refusal(backend().set_no_copy_on_write(fd)), EOPNOTSUPP);
  sluice::detail::direct_io_facts direct;
  EXPECT_EQ(refusal(backend().direct_alignment(fd, &direct)), EOPNOTSUPP);
  auto which = sluice::detail::filesystem::ext4;
  EXPECT_EQ(backend().filesystem_of(fd, &which), 0);
  EXPECT_EQ(which, sluice::detail::filesystem::other);
  ::close(fd);
  if (std::filesystem::is_directory("/proc/self")) {
    int proc = backend().open(sluice::detail::working_directory, "/proc", {.directory = true});
    ASSERT_GE(proc, 0);
    EXPECT_EQ(backend().on_procfs(proc), 0) << "no /proc on the systems this backend is for";
    ::close(proc);
  }
}

// (In the Linux build, the table's async entries are io_uring's.)
#ifdef SLUICE_BACKEND_POSIX
TEST_F(posix_sys, async_writes_are_refused_with_enosys_so_write_behind_uses_its_thread) {
  sluice::detail::async_queue* queue = nullptr;
  EXPECT_EQ(refusal(backend().async_open(4, &queue)), ENOSYS);
  EXPECT_EQ(queue, nullptr);
}
#endif

// Through the table: pwritev/preadv where the platform has them, else one
// call per piece.
TEST_F(posix_sys, write_at_and_read_at_move_the_pieces_in_order_at_the_offset) {
  int fd = open_file("f", "0123456789");
  std::string a = "ab", b = "", c = "cde";
  iovec out[] = {{a.data(), a.size()}, {b.data(), b.size()}, {c.data(), c.size()}};
  EXPECT_EQ(backend().write_at(fd, out, 3, 3), 5);
  EXPECT_EQ(read_all(dir / "f"), "012abcde89");
  std::string x(4, '.'), y(4, '.');
  iovec in[] = {{x.data(), x.size()}, {y.data(), y.size()}};
  EXPECT_EQ(backend().read_at(fd, in, 2, 1), 8);
  EXPECT_EQ(x + y, "12abcde8");
  ::close(fd);
}

// The fallback without preadv: a piece cut short by the end of the file
// ends the call, with the bytes read so far.
TEST_F(posix_sys, read_each_stops_at_the_end_of_the_file_inside_a_piece) {
  int fd = open_file("f", "0123456789");
  std::string x(4, '.'), y(4, '.'), z(4, '.');
  iovec in[] = {{x.data(), x.size()}, {y.data(), y.size()}, {z.data(), z.size()}};
  EXPECT_EQ(posix::read_each(fd, in, 3, 0), 10);
  EXPECT_EQ(x + y + z, "0123456789..");
  EXPECT_EQ(posix::read_each(fd, in, 3, 10), 0) << "the end";
  EXPECT_EQ(refusal(posix::read_each(-1, in, 3, 0)), EBADF);
  ::close(fd);
}

// The fallback without pwritev, in a child process whose file size limit
// is 10 bytes: the third piece is cut short (a short transfer, not an
// error), and only the next call fails (EFBIG).
TEST_F(posix_sys, write_each_reports_a_short_write_then_the_error_on_the_next_call) {
  int fd = open_file("f");
  pid_t child = ::fork();
  ASSERT_NE(child, -1);
  if (child == 0) {
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit limit{10, 10};
    if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(3);
    std::string a = "0123", b = "4567", c = "89ab";
    iovec out[] = {{a.data(), a.size()}, {b.data(), b.size()}, {c.data(), c.size()}};
    if (posix::write_each(fd, out, 3, 0) != 10) ::_exit(1);
    ::_exit(refusal(posix::write_each(fd, out + 2, 1, 10)) == EFBIG ? 0 : 2);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: not a short write of 10; 2: no EFBIG after it";
  EXPECT_EQ(read_all(dir / "f"), "0123456789");
  ::close(fd);
}

// No sync_file_range: starting a writeback is a no-op, waiting for one a
// data sync; a stream has no page cache (ESPIPE), as the contract says.
TEST_F(posix_sys, writeback_works_on_files_and_refuses_streams_with_espipe) {
  int fd = open_file("f", "data");
  EXPECT_EQ(backend().writeback(fd, 0, 4, false), 0);
  EXPECT_EQ(backend().writeback(fd, 0, 4, true), 0);
  EXPECT_EQ(backend().sync_data(fd), 0);
  EXPECT_EQ(backend().sync_all(fd), 0);
  ::close(fd);
  pipe_ends ends;
  EXPECT_EQ(refusal(backend().writeback(ends.write_end(), 0, 4, false)), ESPIPE);
  EXPECT_EQ(refusal(backend().writeback(ends.write_end(), 0, 4, true)), ESPIPE);
}

// flock: a lock belongs to the open file, so a second handle of the same
// process is refused (fcntl's record locks would let it through).
TEST_F(posix_sys, a_lock_refuses_a_second_handle_of_the_same_process) {
  int first = open_file("lock");
  int second = backend().open(sluice::detail::working_directory, (dir / "lock").c_str(), {});
  ASSERT_GE(second, 0);
  EXPECT_EQ(backend().lock(first, sluice::detail::lock_kind::exclusive), 0);
  EXPECT_EQ(refusal(backend().lock(second, sluice::detail::lock_kind::shared)), EWOULDBLOCK);
  ::close(first);
  EXPECT_EQ(backend().lock(second, sluice::detail::lock_kind::shared), 0) << "released at close";
  ::close(second);
}

// st_dev of a directory and of its "..": the root and /proc (mounted on it)
// are mount points, a directory made here and a file are not.
TEST_F(posix_sys, mount_root_compares_a_directory_with_its_parent) {
  auto is_root = [](const std::filesystem::path& path) {
    int fd = backend().open(sluice::detail::working_directory, path.c_str(),
                            {.mode = access::path_only});
    EXPECT_GE(fd, 0) << path;
    int root = backend().mount_root(fd);
    ::close(fd);
    return root;
  };
  EXPECT_EQ(is_root("/"), 1);
  if (std::filesystem::is_directory("/proc/self")) {
    EXPECT_EQ(is_root("/proc"), 1);
  }
  std::filesystem::create_directory(dir / "d");
  EXPECT_EQ(is_root(dir / "d"), 0);
  write_all(dir / "f", "x");
  EXPECT_EQ(is_root(dir / "f"), 0);
}

}  // namespace
