// writer_options::caching: no_cache keeps a big file out of the page cache
// (where the filesystem has one apart from the file: not tmpfs), writes
// every byte all the same, and reports writeback errors.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <sluice/sluice.hpp>
#include <string>
#include <vector>

#include "support/fake_sys.hpp"
#include "support/filesystem.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::caching;
using sluice::writer;

constexpr std::uint64_t mib = 1024 * 1024;
constexpr std::uint64_t window = sluice::writer_options::cache_window;

using writer_cache = dir_test;

// Bytes of `path` resident in the page cache (mincore).
std::uint64_t resident(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) ADD_FAILURE() << "open " << path;
  off_t size = ::lseek(fd, 0, SEEK_END);
  long page = ::sysconf(_SC_PAGESIZE);
  void* map = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) ADD_FAILURE() << "mmap " << path;
  std::vector<unsigned char> pages((static_cast<std::size_t>(size) + page - 1) / page);
  if (::mincore(map, static_cast<std::size_t>(size), pages.data()) != 0) ADD_FAILURE() << "mincore";
  ::munmap(map, static_cast<std::size_t>(size));
  std::uint64_t count = 0;
  for (unsigned char p : pages) count += p & 1;
  return count * static_cast<std::uint64_t>(page);
}

// Writes `size` bytes of 1 MiB pieces of one pattern.
void write_big(writer& out, std::uint64_t size) {
  std::string piece = pattern(mib);
  for (std::uint64_t done = 0; done < size; done += mib) out.write(piece);
}

TEST_F(writer_cache, no_cache_leaves_little_of_a_big_file_cached) {
  constexpr std::uint64_t size = 256 * mib;
  auto cached = dir / "cached";
  auto uncached = dir / "uncached";
  {
    writer out(cached);
    write_big(out, size);
    out.close();
  }
  {
    writer out(uncached, {.caching = caching::no_cache});
    write_big(out, size);
    out.close();
  }
  EXPECT_EQ(size_on_disk(uncached), size);
  // Before reading them back caches them all.
  std::uint64_t left_cached = resident(uncached), cached_normally = resident(cached);
  EXPECT_TRUE(read_all(uncached) == read_all(cached)) << "no_cache wrote other bytes";
  std::printf("[          ] resident after close: normal %llu MiB, no_cache %llu MiB of %llu\n",
              static_cast<unsigned long long>(cached_normally / mib),
              static_cast<unsigned long long>(left_cached / mib),
              static_cast<unsigned long long>(size / mib));
  if (auto why = needs_droppable_cache(dir.path()); !why.empty()) GTEST_SKIP() << why;
  EXPECT_LE(left_cached, 2 * window);
}

// The background thread drops the old windows in its place.
TEST_F(writer_cache, no_cache_with_write_behind_leaves_little_cached) {
  constexpr std::uint64_t size = 4 * window + 3 * mib;
  auto path = dir / "uncached";
  std::string piece = pattern(mib);
  writer out(path, {.caching = caching::no_cache, .write_behind = true});
  for (std::uint64_t done = 0; done < size; done += mib)
    for (char c : piece) out.put(c);  // byte by byte: every buffer goes through the thread
  out.close();
  EXPECT_EQ(size_on_disk(path), size);
  std::uint64_t left_cached = resident(path);  // before reading it back caches it all
  std::string file = read_all(path);
  for (std::uint64_t at = 0; at < size; at += mib)
    ASSERT_EQ(file.compare(at, mib, piece), 0) << "at " << at;
  if (auto why = needs_droppable_cache(dir.path()); !why.empty()) GTEST_SKIP() << why;
  EXPECT_LE(left_cached, 2 * window);
}

TEST_F(writer_cache, every_write_starts_its_writeback_and_old_windows_are_dropped) {
  auto path = dir / "f";
  fake_sys fake;
  writer out(path, {.buffer_size = mib, .caching = caching::no_cache});
  write_big(out, 3 * window);
  std::vector<call> log = fake.log();
  for (std::size_t i = 0; i < log.size(); ++i)
    if (log[i] == call::write_at) {
      ASSERT_LT(i + 1, log.size());
      EXPECT_EQ(log[i + 1], call::writeback) << "write " << i << " left alone";
    }
  EXPECT_GE(fake.calls(call::drop_cache), 1) << "nothing dropped after three windows";
  out.close();
  // close writes the last buffer, then waits for and drops everything left.
  ASSERT_GE(fake.log().size(), 3u);
  EXPECT_EQ(std::vector<call>(fake.log().end() - 3, fake.log().end()),
            (std::vector<call>{call::writeback, call::drop_cache, call::close}));
  EXPECT_EQ(size_on_disk(path), 3 * window);
}

TEST_F(writer_cache, normal_caching_makes_no_cache_calls) {
  fake_sys fake;
  writer out(dir / "f", {.buffer_size = mib});
  write_big(out, 3 * window);
  out.close();
  EXPECT_EQ(fake.calls(call::writeback), 0);
  EXPECT_EQ(fake.calls(call::drop_cache), 0);
}

TEST_F(writer_cache, a_writeback_error_poisons_the_writer) {
  auto path = dir / "f";
  fake_sys fake;
  writer out(path, {.buffer_size = mib, .caching = caching::no_cache});
  // Every write starts its writeback; the first waiting call comes once two
  // windows are written, right after the second window's last start.
  int waiting_call = static_cast<int>(2 * window / mib) + 1;
  fake.fail(call::writeback, waiting_call, EIO);
  auto e = thrown([&] { write_big(out, 3 * window); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_NE(std::string(e->what()).find("sync_file_range " + quoted(path)), std::string::npos)
      << e->what();
  auto again = thrown([&] { out.put('x'); });
  ASSERT_TRUE(again);
  EXPECT_EQ(again->code().value(), EIO);
  auto closing = thrown([&] { out.close(); });
  ASSERT_TRUE(closing);
  EXPECT_EQ(closing->code().value(), EIO);
  EXPECT_EQ(fake.calls(call::sync_data), 0);
}

// Whether `ranges` start writeback only (no waiting) and cover [0, size)
// one after another.
void expect_contiguous_writeback(const std::vector<writeback_record>& ranges, std::uint64_t size) {
  std::uint64_t covered = 0;
  for (const writeback_record& r : ranges) {
    EXPECT_FALSE(r.wait) << "a sync at close waits only there";
    EXPECT_EQ(static_cast<std::uint64_t>(r.offset), covered);
    covered += static_cast<std::uint64_t>(r.length);
  }
  EXPECT_EQ(covered, size);
}

TEST_F(writer_cache, a_writer_synced_at_close_starts_writeback_as_it_writes) {
  using sluice::durability;
  for (sluice::writer_options options :
       {sluice::writer_options{.durability = durability::data_on_close},
        sluice::writer_options{.durability = durability::all_on_close},
        sluice::writer_options{.atomic_replace = true},
        sluice::writer_options{.durability = durability::data_on_close, .write_behind = true}}) {
    auto path = dir / "f";
    fake_sys fake;
    writer out(path, options);
    write_big(out, 8 * mib);
    out.flush();
    EXPECT_EQ(out.write_behind_engine(), options.write_behind ? sluice::write_behind_engine::thread
                                                              : sluice::write_behind_engine::none)
        << "the thread starts each buffer's writeback";
    EXPECT_EQ(
        fake.calls(call::sync_data) + fake.calls(call::sync_all) + fake.calls(call::sync_directory),
        0);
    expect_contiguous_writeback(fake.writebacks(), 8 * mib);
    out.close();
    EXPECT_EQ(size_on_disk(path), 8 * mib);
  }
}

TEST_F(writer_cache, writes_not_synced_at_close_or_synced_each_start_no_writeback) {
  using sluice::durability;
  for (sluice::writer_options options :
       {sluice::writer_options{},
        sluice::writer_options{.durability = durability::write_through}}) {
    fake_sys fake;
    writer out(dir / "f", options);
    write_big(out, 4 * mib);
    out.close();
    EXPECT_EQ(fake.calls(call::writeback), 0);
  }
}

TEST_F(writer_cache, a_failed_early_writeback_is_a_sticky_error_and_replaces_nothing) {
  auto path = dir / "f";
  write_all(path, "old");
  fake_sys fake;
  writer out(path, {.atomic_replace = true});
  fake.fail(call::writeback, 2, EIO);
  auto e = thrown([&] { write_big(out, 4 * mib); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_NE(std::string(e->what()).find("sync_file_range"), std::string::npos) << e->what();
  EXPECT_TRUE(thrown([&] { out.close(); }));
  EXPECT_EQ(read_all(path), "old");
}

}  // namespace
