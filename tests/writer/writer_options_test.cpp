// writer_options::preallocate and writer_options::durability: what reaches
// the disk, in which order, and what happens when a step fails.
#include <gtest/gtest.h>

#ifndef _WIN32
#include <fcntl.h>
#endif

#include <algorithm>
#include <cerrno>
#include <iterator>
#include <sluice/sluice.hpp>
#include <string>
#include <vector>

#include "support/fake_sys.hpp"
#include "support/filesystem.hpp"
#include "support/platform.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::durability;
using sluice::writer;
using sluice::detail::space_mode;

constexpr std::uint64_t mib = 1024 * 1024;

using writer_preallocate = dir_test;
using writer_durability = dir_test;

// The calls of `log` from the last occurrence of `first` on.
std::vector<call> from_last(const std::vector<call>& log, call first) {
  auto at = std::find(log.rbegin(), log.rend(), first);
  if (at == log.rend()) return {};
  return {std::prev(at.base()), log.end()};
}

// --- preallocate -----------------------------------------------------------------------

TEST_F(writer_preallocate, reserves_up_front_and_gives_back_the_rest_at_close) {
  auto path = dir / "p";
  std::string data = pattern(100'000);
  writer out(path, {.preallocate = 8 * mib});
  if (!out.preallocated())
    GTEST_SKIP() << "no preallocation here (the filesystem or the backend refuses it)";
  EXPECT_EQ(size_on_disk(path), 0u) << "the reservation must not change the size";
  EXPECT_GE(allocated(path), 8 * mib);
  out.write(data);
  out.close();
  EXPECT_EQ(size_on_disk(path), data.size());
  EXPECT_LT(allocated(path), 1 * mib) << "the unused reservation was not given back";
  EXPECT_EQ(read_all(path), data);
}

// Nothing reserved is left past the data, so nothing is cut: on XFS an
// ftruncate to the size alone writes the whole file back first.
TEST_F(writer_preallocate, a_reservation_the_data_reached_is_not_cut_at_close) {
  for (std::uint64_t extra : {0u, 1u, 5000u}) {
    auto path = dir / std::to_string(extra);
    std::string data = pattern(64 * 1024 + extra);
    fake_sys fake;
    writer out(path, {.buffer_size = 4096, .preallocate = 64 * 1024});
    if (!out.preallocated())
      GTEST_SKIP() << "no preallocation here (the filesystem or the backend refuses it)";
    out.write(data);
    out.close();
    EXPECT_EQ(fake.calls(call::resize), 0) << extra << " bytes past the reservation";
    EXPECT_EQ(read_all(path), data);
  }
}

TEST_F(writer_preallocate, writing_past_the_reservation_keeps_working) {
  auto path = dir / "p";
  std::string data = pattern(3 * mib + 17);
  writer out(path, {.buffer_size = 4096, .preallocate = 64 * 1024});
  out.write(data);
  out.close();
  EXPECT_EQ(read_all(path), data);
}

TEST_F(writer_preallocate, an_appended_file_keeps_its_size_and_content) {
  auto path = dir / "p";
  write_all(path, "existing ");
  fake_sys fake;
  auto f = sluice::file::open(path, {.mode = sluice::open_mode::append});
  writer out(std::move(f), {.preallocate = mib});
  ASSERT_EQ(fake.calls(call::preallocate), 1);
  EXPECT_EQ(size_on_disk(path), 9u);
  out.write(std::string_view("appended"));
  out.close();
  EXPECT_EQ(read_all(path), "existing appended");
}

TEST_F(writer_preallocate, a_filesystem_without_fallocate_is_reported_not_emulated) {
  auto path = dir / "p";
  fake_sys fake;
  fake.fail(call::preallocate, 1, EOPNOTSUPP);
  writer out(path, {.preallocate = mib});
  EXPECT_FALSE(out.preallocated());
  out.write(std::string_view("still written"));
  out.close();
  EXPECT_EQ(fake.calls(call::preallocate), 1);
  EXPECT_EQ(fake.calls(call::resize), 0) << "nothing to give back";
  EXPECT_EQ(fake.calls(call::write_at), 1) << "no byte-writing emulation";
  EXPECT_EQ(read_all(path), "still written");
}

TEST_F(writer_preallocate, no_space_for_the_reservation_throws_before_any_data_is_accepted) {
  auto path = dir / "p";
  fake_sys fake;
  fake.fail(call::preallocate, 1, ENOSPC);
  auto e = thrown([&] { writer out(path, {.preallocate = mib}); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), ENOSPC);
  EXPECT_NE(std::string(e->what()).find("preallocate " + quoted(path)), std::string::npos)
      << e->what();
  EXPECT_EQ(fake.calls(call::write_at), 0);
}

TEST_F(writer_preallocate, not_asked_means_no_fallocate_and_no_truncate) {
  fake_sys fake;
  writer out(dir / "p");
  EXPECT_FALSE(out.preallocated());
  out.write(std::string_view("x"));
  out.close();
  EXPECT_EQ(fake.calls(call::preallocate), 0);
  EXPECT_EQ(fake.calls(call::resize), 0);
}

TEST_F(writer_preallocate, the_reservation_is_given_back_after_a_write_error_too) {
  // writer_options::preallocate reserves without growing the file.
  if (auto why = needs_preallocation(dir.path(), space_mode::keep_size); !why.empty())
    GTEST_SKIP() << why;
  auto path = dir / "p";
  fake_sys fake;
  writer out(path, {.buffer_size = 16, .preallocate = mib});
  fake.fail(call::write_at, 1, EIO);
  EXPECT_TRUE(thrown<sluice::write_error>([&] { out.write(pattern(40)); }));
  EXPECT_TRUE(thrown<sluice::write_error>([&] { out.close(); }));
  EXPECT_EQ(fake.calls(call::resize), 1);
  EXPECT_EQ(size_on_disk(path), 0u);
}

// --- durability -----------------------------------------------------------------------

TEST_F(writer_durability, none_never_syncs) {
  fake_sys fake;
  writer out(dir / "d");
  out.write(std::string_view("data"));
  out.close();
  EXPECT_EQ(fake.calls(call::sync_data), 0);
  EXPECT_EQ(fake.calls(call::sync_all), 0);
  EXPECT_EQ(fake.calls(call::sync_directory), 0);
}

TEST_F(writer_durability, data_on_close_writes_then_fdatasyncs_then_closes) {
  auto path = dir / "d";
  fake_sys fake;
  writer out(path, {.durability = durability::data_on_close});
  out.write(std::string_view("data"));
  EXPECT_EQ(fake.calls(call::sync_data), 0) << "nothing is synced before close";
  out.close();
  EXPECT_EQ(from_last(fake.log(), call::write_at),
            (std::vector<call>{call::write_at, call::sync_data, call::close}));
  EXPECT_EQ(fake.calls(call::sync_all), 0);
  EXPECT_EQ(fake.calls(call::sync_directory), 0);
  EXPECT_EQ(read_all(path), "data");
}

TEST_F(writer_durability, all_on_close_of_a_new_file_syncs_the_file_then_its_directory) {
  auto path = dir / "d";
  fake_sys fake;
  writer out(path, {.durability = durability::all_on_close});
  out.write(std::string_view("data"));
  out.close();
  EXPECT_EQ(from_last(fake.log(), call::write_at),
            (std::vector<call>{call::write_at, call::sync_all, call::close, call::sync_directory,
                               call::close}));
  // The directory and the name in it (O_PATH: the path resolved), the
  // directory for reading (to be synced), then the file, created in it.
  ASSERT_EQ(fake.opens().size(), 4u);
  EXPECT_TRUE(fake.opens()[0].directory) << "the directory is opened first";
  EXPECT_TRUE(fake.opens()[2].directory);
  EXPECT_NE(fake.opens()[2].mode, sluice::detail::open_request::access::path_only);
  EXPECT_TRUE(fake.opens()[3].exclusive) << "the writer must know it created the file";
  EXPECT_EQ(fake.open_paths()[3], "d");
  EXPECT_EQ(read_all(path), "data");
}

TEST_F(writer_durability, all_on_close_syncs_the_directory_of_open_time_after_a_chdir) {
  auto first = dir / "first", second = dir / "second";
  std::filesystem::create_directory(first);
  std::filesystem::create_directory(second);
  auto back = std::filesystem::current_path();
  std::filesystem::current_path(first);
  fake_sys fake;
  writer out("d", {.durability = durability::all_on_close});
  out.write(std::string_view("data"));
  std::filesystem::current_path(second);
  auto e = thrown([&] { out.close(); });
  std::filesystem::current_path(back);
  EXPECT_FALSE(e) << e->what();
  ASSERT_EQ(fake.open_paths().size(), 4u);
  EXPECT_EQ(fake.open_paths()[0], first.string());
  EXPECT_EQ(read_all(first / "d"), "data");
}

TEST_F(writer_durability, all_on_close_of_an_existing_file_syncs_only_the_file) {
  auto path = dir / "d";
  write_all(path, "old content, longer");
  fake_sys fake;
  writer out(path, {.durability = durability::all_on_close});
  out.write(std::string_view("new"));
  out.close();
  EXPECT_EQ(from_last(fake.log(), call::write_at),
            (std::vector<call>{call::write_at, call::sync_all, call::close}));
  EXPECT_EQ(fake.calls(call::open), 5)
      << "the directory and the name O_PATH, the directory to sync, create refused, then open";
  EXPECT_EQ(read_all(path), "new");
}

// Through a dangling link the link's target is created, as open(2) would
// create it, in the directory the link leads to: that directory is synced.
TEST_F(writer_durability, all_on_close_through_a_dangling_link_syncs_the_directory_it_creates_in) {
  if (auto why = needs_symlinks(dir.path()); !why.empty()) GTEST_SKIP() << why;
  std::filesystem::create_directory(dir / "real");
  std::filesystem::create_symlink("real/d", dir / "link");
  std::vector<file_identity> synced;
  {
    fake_sys fake;
    writer out(dir / "link", {.durability = durability::all_on_close});
    out.write(std::string_view("data"));
    out.close();
    synced = fake.synced();
  }
  EXPECT_EQ(read_all(dir / "real" / "d"), "data");
  EXPECT_TRUE(std::filesystem::is_symlink(dir / "link"));
  ASSERT_EQ(synced.size(), 2u) << "the file, then its directory";
  EXPECT_EQ(synced[1], identity_of(dir / "real"));
}

// The file found by the exclusive create (EEXIST) and removed before it is
// opened: created again, and its directory synced, rather than created by
// an open that would not sync it.
TEST_F(writer_durability, all_on_close_of_a_file_removed_meanwhile_creates_it_and_syncs_it) {
  SLUICE_SKIP_ON_WINDOWS(
      "a file another handle holds open (here find_target's look at it) is removed only when "
      "that handle closes, under Wine and on Windows without POSIX delete semantics: it cannot "
      "vanish between the two opens");
  auto path = dir / "d";
  write_all(path, "old");
  fake_sys fake;
  bool removed = false;
  fake.on_open([&](const std::string& name, const sluice::detail::open_request& how) {
    bool opens_existing = !how.create && !how.directory &&
                          how.mode != sluice::detail::open_request::access::path_only;
    if (opens_existing && std::filesystem::path(name).filename() == "d" && !removed) {
      removed = true;
      std::filesystem::remove(path);
    }
    return 0;
  });
  writer out(path, {.durability = durability::all_on_close});
  out.write(std::string_view("new"));
  out.close();
  EXPECT_TRUE(removed);
  EXPECT_EQ(read_all(path), "new");
  EXPECT_EQ(fake.calls(call::sync_all), 1) << "the file";
  EXPECT_EQ(fake.calls(call::sync_directory), 1) << "then its directory";
}

// A file that is there whenever it is created and gone whenever it is
// opened: the writer gives up after a few attempts, saying why.
TEST_F(writer_durability, all_on_close_of_a_file_that_keeps_disappearing_gives_up) {
  auto path = dir / "d";
  fake_sys fake;
  fake.on_open([&](const std::string& name, const sluice::detail::open_request& how) {
    using access = sluice::detail::open_request::access;
    if (std::filesystem::path(name).filename() != "d" || how.mode == access::path_only) return 0;
    if (how.exclusive)
      write_all(path, "appears");
    else
      std::filesystem::remove(path);
    return 0;
  });
  auto e = thrown([&] { writer out(path, {.durability = durability::all_on_close}); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EAGAIN);
  EXPECT_NE(std::string(e->what()).find("keeps appearing and disappearing"), std::string::npos)
      << e->what();
}

#ifndef _WIN32
// A link to /proc/self/fd/N stands for that descriptor: open(2) follows it
// to the descriptor's file, which is written (and, existing, needs no
// directory sync), the link kept.
TEST_F(writer_durability, all_on_close_through_a_descriptor_link_writes_the_descriptors_file) {
  write_all(dir / "target", "old content");
  int fd = ::open((dir / "target").c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  std::filesystem::create_symlink("/proc/self/fd/" + std::to_string(fd), dir / "descriptor");
  {
    fake_sys fake;
    writer out(dir / "descriptor", {.durability = durability::all_on_close});
    out.write(std::string_view("new"));
    out.close();
    EXPECT_EQ(fake.calls(call::sync_all), 1) << "the file only";
    EXPECT_EQ(fake.calls(call::sync_directory), 0);
  }
  ::close(fd);
  EXPECT_EQ(read_all(dir / "target"), "new");
  EXPECT_TRUE(std::filesystem::is_symlink(dir / "descriptor"));
}
#else
SLUICE_SKIPPED_ON_WINDOWS_F(writer_durability,
                            all_on_close_through_a_descriptor_link_writes_the_descriptors_file,
                            "a symbolic link to /proc/self/fd/N")
#endif

TEST_F(writer_durability, all_on_close_through_an_open_file_does_not_sync_the_directory) {
  auto f = sluice::file::open(dir / "d");
  fake_sys fake;
  writer out(std::move(f), {.durability = durability::all_on_close});
  out.write(std::string_view("data"));
  out.close();
  EXPECT_EQ(fake.calls(call::sync_all), 1);
  EXPECT_EQ(fake.calls(call::sync_directory), 0);
  EXPECT_EQ(fake.calls(call::open), 0);
}

TEST_F(writer_durability, the_reservation_is_given_back_before_the_sync) {
  // writer_options::preallocate reserves without growing the file.
  if (auto why = needs_preallocation(dir.path(), space_mode::keep_size); !why.empty())
    GTEST_SKIP() << why;
  fake_sys fake;
  writer out(dir / "d", {.preallocate = mib, .durability = durability::all_on_close});
  out.write(std::string_view("data"));
  out.close();
  EXPECT_EQ(from_last(fake.log(), call::write_at),
            (std::vector<call>{call::write_at, call::facts, call::resize, call::sync_all,
                               call::close, call::sync_directory, call::close}));
}

TEST_F(writer_durability, a_failed_sync_at_close_poisons_the_writer_and_is_not_retried) {
  auto path = dir / "d";
  fake_sys fake;
  writer out(path, {.durability = durability::data_on_close});
  out.write(std::string_view("data"));
  fake.fail(call::sync_data, 1, EIO);
  auto e = thrown([&] { out.close(); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_NE(std::string(e->what()).find(quoted(path)), std::string::npos) << e->what();
  EXPECT_NE(std::string(e->what()).find("fdatasync"), std::string::npos) << e->what();
  auto again = thrown([&] { out.write(std::string_view("more")); });
  ASSERT_TRUE(again);
  EXPECT_EQ(again->code().value(), EIO);
  EXPECT_FALSE(out.is_open());
  EXPECT_EQ(fake.calls(call::sync_data), 1);
  EXPECT_EQ(fake.calls(call::close), 1);
}

TEST_F(writer_durability, a_failed_directory_sync_is_thrown_by_close) {
  auto path = dir / "d";
  fake_sys fake;
  writer out(path, {.durability = durability::all_on_close});
  out.write(std::string_view("data"));
  fake.fail(call::sync_directory, 1, EIO);  // after the file's sync_all
  auto e = thrown([&] { out.close(); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_NE(std::string(e->what()).find("fsync directory " + quoted(dir.path())), std::string::npos)
      << e->what();
}

TEST_F(writer_durability, the_destructor_syncs_too) {
  fake_sys fake;
  {
    writer out(dir / "d", {.durability = durability::data_on_close});
    out.write(std::string_view("data"));
  }
  EXPECT_EQ(fake.calls(call::sync_data), 1);
}

TEST_F(writer_durability, write_through_syncs_after_every_write_to_the_os) {
  auto path = dir / "w";
  fake_sys fake;
  writer out(path, {.buffer_size = 64, .durability = durability::write_through});
  out.write(pattern(100, 1));  // fills the buffer once: one write, one sync
  // fstat: the constructor checks that the file is no pipe, which cannot sync.
  EXPECT_EQ(fake.log(),
            (std::vector<call>{call::open, call::facts, call::write_at, call::sync_data}));
  out.write(pattern(500, 2));  // gathered with the 36 buffered bytes
  EXPECT_EQ(fake.calls(call::write_at), 2);
  EXPECT_EQ(fake.calls(call::sync_data), 2);
  out.put('!');
  out.flush();  // durable when it returns
  EXPECT_EQ(from_last(fake.log(), call::write_at),
            (std::vector<call>{call::write_at, call::sync_data}));
  out.sync();  // nothing new to make durable: no second sync
  EXPECT_EQ(fake.calls(call::sync_data), 3);
  out.close();
  EXPECT_EQ(fake.calls(call::sync_data), 3) << "close had nothing left to write";
  EXPECT_EQ(read_all(path), pattern(100, 1) + pattern(500, 2) + "!");
}

TEST_F(writer_durability, write_through_sync_failure_poisons_the_writer) {
  auto path = dir / "w";
  fake_sys fake;
  writer out(path, {.buffer_size = 64, .durability = durability::write_through});
  fake.fail(call::sync_data, 1, EIO);
  auto e = thrown([&] { out.write(pattern(100)); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_NE(std::string(e->what()).find("fdatasync " + quoted(path)), std::string::npos)
      << e->what();
  auto again = thrown([&] { out.close(); });
  ASSERT_TRUE(again);
  EXPECT_EQ(again->code().value(), EIO);
  EXPECT_EQ(fake.calls(call::sync_data), 1) << "a failed sync is never retried";
}

}  // namespace
