// sluice::file: open modes, permissions, transfers, size, preallocation,
// extents and the messages of write errors.
#include <gtest/gtest.h>

#ifndef _WIN32
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include <cerrno>
#include <cstring>
#include <numeric>
#include <sluice/sluice.hpp>
#include <string>
#include <vector>

#include "support/fake_sys.hpp"
#include "support/filesystem.hpp"
#include "support/platform.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::file;
using sluice::open_mode;

using file_open = dir_test;
using file_io = dir_test;

// --- open modes ------------------------------------------------------------

TEST_F(file_open, create_new_creates_a_missing_file_for_reading_and_writing) {
  auto path = dir / "new.bin";
  auto f = file::open(path, {.mode = open_mode::create_new});
  EXPECT_TRUE(f.is_open());
  EXPECT_EQ(f.path(), path.string());
  f.write(bytes_of("hello"));
  EXPECT_EQ(read_text(f, 5, 0), "hello");
  f.close();
  EXPECT_EQ(read_all(path), "hello");
}

TEST_F(file_open, create_new_fails_with_eexist_when_the_path_exists) {
  auto path = dir / "exists.bin";
  write_all(path, "keep me");
  auto e = thrown([&] { file::open(path, {.mode = open_mode::create_new}); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EEXIST);
  EXPECT_NE(std::string(e->what()).find("open " + quoted(path)), std::string::npos) << e->what();
  EXPECT_EQ(read_all(path), "keep me");
}

TEST_F(file_open, truncate_is_the_default_and_empties_an_existing_file) {
  auto path = dir / "t.bin";
  write_all(path, "old content");
  auto f = file::open(path);
  EXPECT_EQ(f.size(), 0u);
  EXPECT_EQ(f.position(), 0u);
  f.write(bytes_of("new"));
  f.close();
  EXPECT_EQ(read_all(path), "new");
}

TEST_F(file_open, truncate_creates_a_missing_file) {
  auto path = dir / "t.bin";
  file::open(path, {.mode = open_mode::truncate}).close();
  EXPECT_TRUE(std::filesystem::exists(path));
  EXPECT_EQ(size_on_disk(path), 0u);
}

TEST_F(file_open, append_starts_at_the_size_and_writes_go_to_the_end) {
  auto path = dir / "log.txt";
  write_all(path, "first\n");
  auto f = file::open(path, {.mode = open_mode::append});
  EXPECT_EQ(f.position(), 6u);
  f.write(bytes_of("second\n"));
  EXPECT_EQ(f.position(), 13u);
  // Someone else appends behind our back: O_APPEND still puts ours at the end.
  {
    auto other = file::open(path, {.mode = open_mode::append});
    other.write(bytes_of("other\n"));
  }
  f.write(bytes_of("third\n"));
  f.close();
  EXPECT_EQ(read_all(path), "first\nsecond\nother\nthird\n");
}

TEST_F(file_open, append_creates_a_missing_file) {
  auto path = dir / "log.txt";
  auto f = file::open(path, {.mode = open_mode::append});
  EXPECT_EQ(f.position(), 0u);
  f.write(bytes_of("x"));
  f.close();
  EXPECT_EQ(read_all(path), "x");
}

TEST_F(file_open, open_existing_fails_with_enoent_when_missing) {
  auto path = dir / "missing.bin";
  auto e = thrown([&] { file::open(path, {.mode = open_mode::open_existing}); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), ENOENT);
  EXPECT_NE(std::string(e->what()).find(quoted(path)), std::string::npos) << e->what();
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST_F(file_open, open_existing_reads_and_writes_without_truncating) {
  auto path = dir / "e.bin";
  write_all(path, "abcdef");
  auto f = file::open(path, {.mode = open_mode::open_existing});
  EXPECT_EQ(f.size(), 6u);
  EXPECT_EQ(f.position(), 0u);
  f.write(bytes_of("XY"));
  EXPECT_EQ(read_text(f, 6, 0), "XYcdef");
  f.close();
  EXPECT_EQ(read_all(path), "XYcdef");
}

TEST_F(file_open, read_only_reads_and_refuses_writes) {
  auto path = dir / "r.bin";
  write_all(path, "read me");
  auto f = file::open(path, {.mode = open_mode::read_only});
  EXPECT_EQ(read_text(f, 7, 0), "read me");
  auto e = thrown<sluice::write_error>([&] { f.write_at(bytes_of("no"), 2); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EBADF);
  EXPECT_EQ(e->offset(), 2u);
  EXPECT_EQ(e->bytes_written(), 0u);
  f.close();
  EXPECT_EQ(read_all(path), "read me");
}

TEST_F(file_open, read_only_fails_with_enoent_when_missing) {
  auto e = thrown([&] { file::open(dir / "missing", {.mode = open_mode::read_only}); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), ENOENT);
}

TEST_F(file_open, a_missing_directory_is_enoent_and_a_directory_is_eisdir) {
  auto missing = thrown([&] { file::open(dir / "no" / "such.bin"); });
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->code().value(), ENOENT);
  auto directory = thrown([&] { file::open(dir.path()); });
  ASSERT_TRUE(directory);
  EXPECT_EQ(directory->code().value(), EISDIR);
  EXPECT_NE(std::string(directory->what()).find(quoted(dir.path())), std::string::npos);
}

#ifndef _WIN32
TEST_F(file_open, permissions_are_applied_before_the_umask) {
  {
    scoped_umask no_mask(0);
    file::open(dir / "a", {.permissions = 0640}).close();
    file::open(dir / "b", {.mode = open_mode::create_new, .permissions = 0604}).close();
    file::open(dir / "c", {.mode = open_mode::append, .permissions = 0755}).close();
    file::open(dir / "d").close();
  }
  {
    scoped_umask mask(022);
    file::open(dir / "e").close();
  }
  auto mode_of = [&](const char* name) {
    struct stat st {};
    EXPECT_EQ(::stat((dir / name).c_str(), &st), 0);
    return st.st_mode & 07777;
  };
  EXPECT_EQ(mode_of("a"), 0640u);
  EXPECT_EQ(mode_of("b"), 0604u);
  EXPECT_EQ(mode_of("c"), 0755u);
  EXPECT_EQ(mode_of("d"), 0666u);  // the default
  EXPECT_EQ(mode_of("e"), 0644u);
}

TEST_F(file_open, every_mode_sets_close_on_exec) {
  auto path = dir / "x";
  write_all(path, "x");
  for (auto mode :
       {open_mode::truncate, open_mode::append, open_mode::open_existing, open_mode::read_only}) {
    auto f = file::open(path, {.mode = mode});
    int flags = ::fcntl(f.native_handle(), F_GETFD);
    ASSERT_NE(flags, -1);
    EXPECT_TRUE(flags & FD_CLOEXEC) << "mode " << static_cast<int>(mode);
  }
  auto f = file::open(dir / "y", {.mode = open_mode::create_new});
  EXPECT_TRUE(::fcntl(f.native_handle(), F_GETFD) & FD_CLOEXEC);
}
#else
SLUICE_SKIPPED_ON_WINDOWS_F(file_open, permissions_are_applied_before_the_umask,
                            "POSIX permission bits and the umask")
SLUICE_SKIPPED_ON_WINDOWS_F(file_open, every_mode_sets_close_on_exec, "FD_CLOEXEC (fcntl)")
#endif

TEST_F(file_open, append_fails_cleanly_when_its_size_cannot_be_read) {
  fake_sys fake;
  fake.fail(call::facts, 1, EIO);
  auto e = thrown([&] { file::open(dir / "a", {.mode = open_mode::append}); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_NE(std::string(e->what()).find("stat"), std::string::npos) << e->what();
  EXPECT_EQ(fake.calls(call::close), 1);  // the descriptor was not leaked
}

// --- transfers ---------------------------------------------------------------

TEST_F(file_io, write_at_and_read_at_round_trip_without_moving_the_position) {
  auto f = file::open(dir / "rw", {.mode = open_mode::create_new});
  std::string data = pattern(10000);
  f.write_at(bytes_of(data), 100);
  f.write_at(bytes_of("head"), 0);
  EXPECT_EQ(f.position(), 0u);
  EXPECT_EQ(f.size(), 10100u);
  EXPECT_EQ(read_text(f, 10000, 100), data);
  EXPECT_EQ(read_text(f, 4, 0), "head");
  EXPECT_EQ(read_text(f, 96, 4), std::string(96, '\0'));  // the hole reads as zeros
}

TEST_F(file_io, read_at_is_short_at_the_end_of_the_file) {
  auto f = file::open(dir / "rw", {.mode = open_mode::create_new});
  f.write(bytes_of("0123456789"));
  EXPECT_EQ(read_text(f, 100, 4), "456789");
  EXPECT_EQ(read_text(f, 100, 10), "");
  EXPECT_EQ(read_text(f, 100, 1000), "");
  EXPECT_EQ(read_text(f, 0, 0), "");
}

TEST_F(file_io, write_advances_the_position) {
  auto f = file::open(dir / "w");
  f.write(bytes_of("abc"));
  f.write(bytes_of(""));
  f.write(bytes_of("defg"));
  EXPECT_EQ(f.position(), 7u);
  f.close();
  EXPECT_EQ(read_all(dir / "w"), "abcdefg");
}

TEST_F(file_io, write_gather_splits_at_iov_max) {
  constexpr std::size_t count = 3000;
  std::string data = pattern(count * 7);
  std::vector<std::span<const std::byte>> buffers;
  std::vector<std::size_t> sizes;
  std::size_t used = 0;
  for (std::size_t i = 0; i < count; ++i) {
    std::size_t n = 1 + i % 7;
    buffers.push_back(bytes_of(std::string_view(data).substr(used, n)));
    sizes.push_back(n);
    used += n;
  }
  auto path = dir / "g";
  auto f = file::open(path);
  f.write(bytes_of("pre"));
  fake_sys fake;
  f.write_gather(buffers);
  EXPECT_EQ(f.position(), 3 + used);
  ASSERT_EQ(fake.calls(call::write_at), 3);  // ceil(3000 / 1024)
  const auto& calls = fake.writes_at();
  auto bytes_in = [&](std::size_t from, std::size_t to) {
    return std::accumulate(sizes.begin() + from, sizes.begin() + to, std::size_t{0});
  };
  EXPECT_EQ(calls[0].iov_count, 1024);
  EXPECT_EQ(calls[1].iov_count, 1024);
  EXPECT_EQ(calls[2].iov_count, 3000 - 2048);
  EXPECT_EQ(calls[0].offset, 3);
  EXPECT_EQ(calls[1].offset, static_cast<off_t>(3 + bytes_in(0, 1024)));
  EXPECT_EQ(calls[2].offset, static_cast<off_t>(3 + bytes_in(0, 2048)));
  EXPECT_EQ(calls[2].requested, bytes_in(2048, count));
  f.close();
  EXPECT_EQ(read_all(path), "pre" + data.substr(0, used));
}

TEST_F(file_io, write_gather_of_nothing_or_empty_buffers_makes_no_call) {
  auto f = file::open(dir / "g");
  fake_sys fake;
  f.write_gather({});
  std::span<const std::byte> empty[3] = {};
  f.write_gather(empty);
  EXPECT_EQ(fake.calls(call::write_at), 0);
  EXPECT_EQ(f.position(), 0u);
}

TEST_F(file_io, write_gather_skips_empty_buffers_between_full_ones) {
  auto path = dir / "g";
  auto f = file::open(path);
  std::span<const std::byte> parts[] = {bytes_of(""), bytes_of("ab"),  bytes_of(""),
                                        bytes_of(""), bytes_of("cde"), bytes_of("")};
  f.write_gather(parts);
  EXPECT_EQ(f.position(), 5u);
  f.close();
  EXPECT_EQ(read_all(path), "abcde");
}

TEST_F(file_io, size_and_resize) {
  auto path = dir / "s";
  auto f = file::open(path, {.mode = open_mode::create_new});
  EXPECT_EQ(f.size(), 0u);
  f.write(bytes_of("0123456789"));
  EXPECT_EQ(f.size(), 10u);
  f.resize(4);
  EXPECT_EQ(f.size(), 4u);
  EXPECT_EQ(f.position(), 10u);  // not moved
  f.resize(8);
  EXPECT_EQ(read_text(f, 100, 0), std::string("0123") + std::string(4, '\0'));
  f.close();
  EXPECT_EQ(size_on_disk(path), 8u);
}

TEST_F(file_io, resize_failure_names_the_operation) {
  auto path = dir / "s";
  auto f = file::open(path);
  fake_sys fake;
  fake.fail(call::resize, 1, EFBIG);
  auto e = thrown([&] { f.resize(1u << 20); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EFBIG);
  EXPECT_NE(std::string(e->what()).find("resize " + quoted(path)), std::string::npos);
}

TEST_F(file_io, size_failure_names_the_path) {
  auto path = dir / "s";
  auto f = file::open(path);
  fake_sys fake;
  fake.fail(call::facts, 1, EIO);
  auto e = thrown([&] { f.size(); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_NE(std::string(e->what()).find(quoted(path)), std::string::npos);
}

TEST_F(file_io, preallocate_grows_the_file) {
  if (auto why = needs_preallocation(dir.path()); !why.empty()) GTEST_SKIP() << why;
  auto f = file::open(dir / "p", {.mode = open_mode::create_new});
  f.write(bytes_of("abc"));
  f.preallocate(0, 1 << 20);
  EXPECT_EQ(f.size(), 1u << 20);
  f.preallocate(4096, 100);  // inside: the size does not shrink
  EXPECT_EQ(f.size(), 1u << 20);
  EXPECT_EQ(read_text(f, 3, 0), "abc");
  EXPECT_EQ(f.position(), 3u);
}

TEST(file_tmpfs, preallocate_works_on_tmpfs) {
  SLUICE_SKIP_ON_WINDOWS("a tmpfs at /dev/shm");
  if (!on_tmpfs("/dev/shm"))
    GTEST_SKIP() << "/dev/shm is not a tmpfs here, as the backend's filesystem_of says";
  temp_dir shm("/dev/shm");
  auto f = file::open(shm / "p");
  f.preallocate(0, 65536);
  EXPECT_EQ(f.size(), 65536u);
}

TEST(file_tmpfs, extent_count_is_not_supported_on_tmpfs) {
  SLUICE_SKIP_ON_WINDOWS("a tmpfs at /dev/shm");
  if (!on_tmpfs("/dev/shm"))
    GTEST_SKIP() << "/dev/shm is not a tmpfs here, as the backend's filesystem_of says";
  temp_dir shm("/dev/shm");
  auto f = file::open(shm / "x");
  f.write(bytes_of("data"));
  auto e = thrown([&] { f.extent_count(); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EOPNOTSUPP);
  EXPECT_NE(std::string(e->what()).find("not supported"), std::string::npos) << e->what();
}

TEST_F(file_io, preallocate_unsupported_says_so) {
  auto path = dir / "p";
  auto f = file::open(path);
  fake_sys fake;
  fake.fail(call::preallocate, 1, EOPNOTSUPP);
  auto e = thrown([&] { f.preallocate(0, 4096); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EOPNOTSUPP);
  std::string what = e->what();
  EXPECT_NE(what.find("not supported"), std::string::npos) << what;
  EXPECT_NE(what.find("preallocate " + quoted(path)), std::string::npos) << what;
  EXPECT_EQ(fake.calls(call::preallocate), 1);  // never emulated by writing zeros
  EXPECT_EQ(fake.calls(call::write_at), 0);
  EXPECT_EQ(f.size(), 0u);
}

TEST_F(file_io, preallocate_failure_names_the_offset) {
  auto path = dir / "p";
  auto f = file::open(path);
  fake_sys fake;
  fake.fail(call::preallocate, 1, ENOSPC);
  auto e = thrown([&] { f.preallocate(8192, 4096); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), ENOSPC);
  EXPECT_NE(std::string(e->what()).find("preallocate " + quoted(path) + " at offset 8192"),
            std::string::npos)
      << e->what();
}

TEST_F(file_io, extent_count_on_the_real_filesystem) {
  auto f = file::open(dir / "x", {.mode = open_mode::create_new});
  std::uint64_t empty = 0;
  try {
    empty = f.extent_count();
  } catch (const std::system_error& e) {
    ASSERT_EQ(e.code().value(), EOPNOTSUPP) << e.what();
    GTEST_SKIP() << "FIEMAP is not supported under " << dir.path() << ": " << e.what();
  }
  EXPECT_EQ(empty, 0u);
  std::string data = pattern(256 * 1024);
  f.write(bytes_of(data));
  f.sync_data();
  EXPECT_GE(f.extent_count(), 1u);
}

TEST_F(file_io, extent_count_reports_enotty_as_not_supported) {
  auto path = dir / "x";
  auto f = file::open(path);
  fake_sys fake;
  fake.fail(call::count_extents, 1, ENOTTY);
  fake.fail(call::count_extents, 2, EOPNOTSUPP);
  fake.fail(call::count_extents, 3, EIO);
  for (int i = 0; i < 2; ++i) {
    auto e = thrown([&] { f.extent_count(); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->code().value(), EOPNOTSUPP);
    EXPECT_NE(std::string(e->what()).find("not supported"), std::string::npos) << e->what();
    EXPECT_NE(std::string(e->what()).find(quoted(path)), std::string::npos) << e->what();
  }
  auto other = thrown([&] { f.extent_count(); });
  ASSERT_TRUE(other);
  EXPECT_EQ(other->code().value(), EIO);
}

TEST_F(file_io, read_failure_names_the_offset) {
  auto path = dir / "r";
  write_all(path, pattern(100));
  auto f = file::open(path, {.mode = open_mode::read_only});
  fake_sys fake;
  fake.short_transfer(call::read_at, 1, 30);
  fake.fail(call::read_at, 2, EIO);
  auto e = thrown([&] { read_text(f, 50, 10); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_NE(std::string(e->what()).find("read " + quoted(path) + " at offset 40"),
            std::string::npos)
      << e->what();
}

TEST_F(file_io, short_and_interrupted_reads_are_continued) {
  auto path = dir / "r";
  std::string data = pattern(1000);
  write_all(path, data);
  auto f = file::open(path, {.mode = open_mode::read_only});
  fake_sys fake;
  fake.short_transfer(call::read_at, 1, 1);
  fake.fail(call::read_at, 2, EINTR);
  fake.short_transfer(call::read_at, 3, 0);  // a read of 0 is the end of the file
  EXPECT_EQ(read_text(f, 1000, 0), data.substr(0, 1));
  fake.short_transfer(call::read_at, 4, 500);
  fake.fail(call::read_at, 5, EINTR);
  EXPECT_EQ(read_text(f, 1000, 0), data);
  EXPECT_EQ(fake.calls(call::read_at), 6);
}

// --- messages ------------------------------------------------------------------

TEST_F(file_io, write_errors_carry_errno_operation_path_and_offset) {
  auto path = dir / "out.bin";
  auto f = file::open(path);
  f.write(bytes_of(pattern(4096)));
  fake_sys fake;
  fake.fail(call::write_at, 1, ENOSPC);
  auto e = thrown<sluice::write_error>([&] { f.write(bytes_of("tail")); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code(), std::error_code(ENOSPC, std::generic_category()));
  EXPECT_EQ(e->offset(), 4096u);
  EXPECT_EQ(e->bytes_written(), 0u);
  EXPECT_EQ(std::string(e->what()),
            "sluice: write " + quoted(path) + " at offset 4096: " + std::strerror(ENOSPC));
  EXPECT_EQ(f.position(), 4096u);
}

TEST_F(file_io, a_partial_write_reports_how_far_it_got) {
  auto path = dir / "out.bin";
  auto f = file::open(path);
  std::string data = pattern(1000);
  fake_sys fake;
  fake.short_transfer(call::write_at, 1, 300);
  fake.fail(call::write_at, 2, EIO);
  auto e = thrown<sluice::write_error>([&] { f.write_at(bytes_of(data), 50); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_EQ(e->offset(), 350u);
  EXPECT_EQ(e->bytes_written(), 300u);
  EXPECT_NE(std::string(e->what()).find("at offset 350"), std::string::npos) << e->what();
  EXPECT_EQ(size_on_disk(path), 350u);
  EXPECT_EQ(read_all(path).substr(50), data.substr(0, 300));
}

TEST_F(file_io, write_gather_failure_moves_the_position_to_the_offset) {
  auto path = dir / "out.bin";
  auto f = file::open(path);
  fake_sys fake;
  fake.short_transfer(call::write_at, 1, 3);
  fake.fail(call::write_at, 2, ENOSPC);
  std::span<const std::byte> parts[] = {bytes_of("ab"), bytes_of("cdef")};
  auto e = thrown<sluice::write_error>([&] { f.write_gather(parts); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->offset(), 3u);
  EXPECT_EQ(f.position(), 3u);
  EXPECT_EQ(fake.writes_at()[1].offset, 3);
  EXPECT_EQ(fake.writes_at()[1].requested, 3u);
  EXPECT_EQ(read_all(path), "abc");
}

}  // namespace
