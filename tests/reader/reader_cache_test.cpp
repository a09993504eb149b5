// sluice::reader and the page cache: caching_mode::normal's sequential
// hint, what caching_mode::no_cache leaves cached (mincore) while reading
// and after close, and caching_mode::direct's reads, every one aligned in
// memory, offset and length (the fake seam's record of them), on the
// filesystem under $TMPDIR.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <sluice/sluice.hpp>
#include <string>

#include "support/fake_sys.hpp"
#include "support/filesystem.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::caching_mode;
using sluice::reader;

constexpr std::uint64_t mib = 1024 * 1024;

// Bytes of [from, to) of `path` resident in the page cache (mincore).
std::uint64_t resident(const std::filesystem::path& path, std::uint64_t from, std::uint64_t to) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) ADD_FAILURE() << "open " << path;
  auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  from = from / page * page;
  std::size_t length = to - from;
  void* map = ::mmap(nullptr, length, PROT_READ, MAP_SHARED, fd, static_cast<off_t>(from));
  ::close(fd);
  if (map == MAP_FAILED) ADD_FAILURE() << "mmap " << path;
  std::vector<unsigned char> pages((length + page - 1) / page);
  if (::mincore(map, length, pages.data()) != 0) ADD_FAILURE() << "mincore";
  ::munmap(map, length);
  std::uint64_t count = 0;
  for (unsigned char p : pages) count += p & 1;
  return count * page;
}

// A file of `size` bytes of lines, in the page cache, written back (dirty
// pages cannot be dropped).
std::filesystem::path big_file(const temp_dir& dir, std::uint64_t size) {
  auto path = dir / "big";
  std::string line = pattern(99, 7);
  for (char& c : line)
    if (c == '\n') c = ' ';
  line += '\n';
  sluice::writer out(path, {.durability = sluice::durability_mode::data_on_close});
  for (std::uint64_t done = 0; done < size; done += line.size()) out.write(line);
  out.close();
  return path;
}

TEST(reader_cache, normal_hints_sequential_reading_once_on_a_file_not_on_a_pipe) {
  temp_dir dir;
  auto path = dir / "in";
  write_all(path, "text\n");
  fake_sys fake;
  {
    reader in(path);
    EXPECT_EQ(*in.read_line(), "text");
  }
  EXPECT_EQ(fake.calls(call::advise_sequential), 1);
  pipe_ends ends;
  ASSERT_TRUE(write_pieces(ends.write_end(), "piped\n", 10));
  ends.close_write();
  reader piped(sluice::file::borrow(ends.read_end(), "pipe"));
  EXPECT_EQ(*piped.read_line(), "piped");
  EXPECT_EQ(fake.calls(call::advise_sequential), 1);
}

TEST(reader_cache, no_cache_leaves_nothing_behind_the_position_cached_and_nothing_after_close) {
  temp_dir dir;
  if (auto why = needs_droppable_cache(dir.path()); !why.empty()) GTEST_SKIP() << why;
  constexpr std::uint64_t size = 64 * mib;
  auto path = big_file(dir, size);
  {
    reader normal(path);
    while (normal.read_line()) {
    }
  }
  ASSERT_GT(resident(path, 0, size), size / 2) << "a normal reader leaves the file cached";

  constexpr std::size_t buffer = 256 * 1024;
  reader in(path, {.buffer_size = buffer, .caching = caching_mode::no_cache});
  while (in.tell() < size / 2) ASSERT_TRUE(in.read_line());
  // The last refill dropped the pages before its position, at most a
  // buffer back, but for those of a folio (2 MiB at most) holding it.
  std::uint64_t behind = in.tell() - buffer - 2 * mib;
  EXPECT_EQ(resident(path, 0, behind), 0u);
  while (in.read_line()) {
  }
  in.close();
  EXPECT_EQ(resident(path, 0, size), 0u);
}

TEST(reader_cache, direct_reads_are_aligned_in_memory_offset_and_length) {
  temp_dir dir;
  std::size_t block = direct_block(dir / "probe");
  if (block == 0)
    GTEST_SKIP() << "no O_DIRECT under $TMPDIR (the filesystem or the backend refuses it)";
  std::string content = pattern(3 * mib + 12345, 9);
  auto path = dir / "in";
  write_all(path, content);
  fake_sys fake;
  reader in(path, {.buffer_size = 100000, .caching = caching_mode::direct});
  std::string got;
  EXPECT_EQ(in.get(), static_cast<unsigned char>(content[0]));
  got += content[0];
  EXPECT_EQ(in.skip(777), 777u);
  got += content.substr(1, 777);
  std::string big(300000, '?');  // larger than the buffer: still through it, aligned
  in.read(std::as_writable_bytes(std::span(big)));
  got += big;
  while (auto line = in.read_line()) {
    got += *line;
    if (in.tell() <= content.size() && content[in.tell() - 1] == '\n') got += '\n';
  }
  EXPECT_EQ(got, content);
  ASSERT_FALSE(fake.reads_at().empty());
  for (const write_record& read : fake.reads_at()) {
    // The transfer loop goes on after a short read until a read returns 0:
    // that last call, at the end of the file, is where the data ended.
    if (static_cast<std::uint64_t>(read.offset) == content.size()) continue;
    EXPECT_EQ(static_cast<std::uint64_t>(read.offset) % block, 0u) << read.offset;
    EXPECT_EQ(read.requested % block, 0u) << read.requested;
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(read.memory) % block, 0u);
  }
  ASSERT_FALSE(fake.opens().empty());
  EXPECT_TRUE(fake.opens().back().direct);
}

TEST(reader_cache, direct_over_an_opened_file_is_refused_saying_why) {
  temp_dir dir;
  auto path = dir / "in";
  write_all(path, "x");
  auto e = thrown([&] {
    reader in(sluice::file::open(path, {.mode = sluice::open_mode::read_only}),
              {.caching = caching_mode::direct});
  });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EINVAL);
  EXPECT_NE(std::string(e->what()).find("caching_mode::direct needs reader(path)"),
            std::string::npos)
      << e->what();
}

}  // namespace
