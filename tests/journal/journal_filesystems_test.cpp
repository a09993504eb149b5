// What sluice::journal does on each filesystem (src/journal/filesystems.hpp):
// the fake seam reports each filesystem (filesystem_of), and the tests see
// which calls make a new segment and what commits write. The last test looks
// at a segment on the filesystem the tests run on.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <sluice/sluice.hpp>
#include <string>
#include <vector>

#include "support/fake_sys.hpp"
#include "support/filesystem.hpp"
#include "support/journal_test_support.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::journal;
using sluice::journal_options;
using sluice::detail::filesystem;

using journal_filesystems = dir_test;

constexpr std::uint64_t header = 64, record = 64 * 1024, ahead = 256 * 1024;
constexpr std::uint64_t segment = std::uint64_t{4} << 20;

// Writes `count` records of 64 KiB (framed) through a journal opened in
// `where` while `fake` reports `type`, and returns the size of each write
// after the header's; then reads them back.
std::vector<std::size_t> commit_sizes(fake_sys& fake, filesystem type,
                                      const std::filesystem::path& where, int count) {
  fake.report_filesystem(type);
  const std::string value(record - 24, 'v');
  auto log = journal::open(where, {.segment_size = segment});
  std::size_t opening = fake.writes_at().size();
  for (int i = 0; i < count; ++i) log.write(bytes_of(value));
  std::vector<std::size_t> sizes;
  for (std::size_t i = opening; i < fake.writes_at().size(); ++i)
    sizes.push_back(fake.writes_at()[i].requested);
  log.close();
  auto again = journal::open(where, {.segment_size = segment});
  EXPECT_EQ(read_records(again).size(), static_cast<std::size_t>(count));
  return sizes;
}

// The position of the first `which` in the fake's log, or the log's size.
std::size_t first_call(const fake_sys& fake, call which) {
  const auto& log = fake.log();
  return static_cast<std::size_t>(std::find(log.begin(), log.end(), which) - log.begin());
}

// ext4 and XFS reserve a segment with fallocate and write zeros 256 KiB
// ahead of the records; they ask for no in-place overwrites.
TEST_F(journal_filesystems, ext4_and_xfs_write_zeros_ahead_into_reserved_segments) {
  for (filesystem type : {filesystem::ext4, filesystem::xfs}) {
    fake_sys fake;
    auto sizes = commit_sizes(fake, type, dir / std::to_string(static_cast<int>(type)), 6);
    // The first commit passes the header's zeroed end, the 6th the zeros
    // the first wrote (to 64 + 64 KiB + 256 KiB).
    std::vector<std::size_t> expected(6, record);
    expected[0] += ahead;
    expected[5] += ahead;
    EXPECT_EQ(sizes, expected) << "type " << static_cast<int>(type);
    EXPECT_EQ(fake.calls(call::set_no_copy_on_write), 0) << "type " << static_cast<int>(type);
    EXPECT_GE(fake.calls(call::preallocate), 1) << "type " << static_cast<int>(type);
  }
}

// btrfs: each new segment is made No_COW while empty, before its blocks
// are reserved, and commits write their records only (no zeros ahead).
TEST_F(journal_filesystems, btrfs_segments_are_overwritten_in_place_without_zeros_ahead) {
  fake_sys fake;
  auto sizes = commit_sizes(fake, filesystem::btrfs, dir.path(), 6);
  EXPECT_EQ(sizes, std::vector<std::size_t>(6, record));
  EXPECT_EQ(fake.calls(call::set_no_copy_on_write), 1);  // the one segment
  EXPECT_LT(first_call(fake, call::set_no_copy_on_write), first_call(fake, call::preallocate));
}

// A btrfs that refuses the attribute (EOPNOTSUPP, ENOTTY, EINVAL) keeps
// the journal working: the segment is reserved and written as it would be
// with it.
TEST_F(journal_filesystems, a_refused_no_copy_on_write_changes_nothing_else) {
  for (int error : {EOPNOTSUPP, ENOTTY, EINVAL}) {
    fake_sys fake;
    fake.fail(call::set_no_copy_on_write, 1, error);
    auto sizes = commit_sizes(fake, filesystem::btrfs, dir / std::to_string(error), 3);
    EXPECT_EQ(sizes, std::vector<std::size_t>(3, record)) << "errno " << error;
    EXPECT_GE(fake.calls(call::preallocate), 1) << "errno " << error;
  }
}

// Any other failure to set it fails the open, naming the call and the file.
TEST_F(journal_filesystems, a_failed_no_copy_on_write_fails_the_open) {
  fake_sys fake;
  fake.report_filesystem(filesystem::btrfs);
  fake.fail(call::set_no_copy_on_write, 1, EIO);
  auto e = thrown([&] { journal::open(dir.path()); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_NE(error_text(e).find("set no-copy-on-write"), std::string::npos) << error_text(e);
  EXPECT_NE(error_text(e).find(".journal.tmp"), std::string::npos) << error_text(e);
}

// tmpfs: a segment is only sized, so that its memory is taken as records
// land (fallocate would take all of it at once), and commits carry no zeros.
TEST_F(journal_filesystems, tmpfs_segments_are_sized_not_reserved) {
  fake_sys fake;
  auto sizes = commit_sizes(fake, filesystem::tmpfs, dir.path(), 6);
  EXPECT_EQ(sizes, std::vector<std::size_t>(6, record));
  EXPECT_EQ(fake.calls(call::preallocate), 0);
  EXPECT_GE(fake.calls(call::resize), 1);
  EXPECT_EQ(fake.calls(call::set_no_copy_on_write), 0);
}

// An option the caller sets wins over the filesystem's way: zero_fill
// writes a new segment whole on tmpfs and btrfs too.
TEST_F(journal_filesystems, zero_fill_is_kept_on_every_filesystem) {
  constexpr std::uint64_t size = 64 * 1024;
  for (filesystem type : {filesystem::tmpfs, filesystem::btrfs}) {
    fake_sys fake;
    fake.report_filesystem(type);
    auto log = journal::open(dir / std::to_string(static_cast<int>(type)),
                             {.segment_size = size, .zero_fill = true});
    std::size_t total = 0;
    for (const auto& write : fake.writes_at()) total += write.requested;
    EXPECT_EQ(total, size + header) << "type " << static_cast<int>(type);
  }
}

// A filesystem the table does not know, or one whose type cannot be read,
// gets ext4's way: zeros ahead.
TEST_F(journal_filesystems, an_unknown_filesystem_gets_zeros_ahead) {
  {
    fake_sys fake;
    auto sizes = commit_sizes(fake, filesystem::other, dir / "nfs", 1);
    EXPECT_EQ(sizes, std::vector<std::size_t>{record + ahead});
  }
  fake_sys fake;
  fake.fail(call::filesystem_of, 1, EIO);
  auto sizes = commit_sizes(fake, filesystem::btrfs, dir / "unreadable", 1);
  EXPECT_EQ(sizes, std::vector<std::size_t>{record + ahead});
  EXPECT_EQ(fake.calls(call::set_no_copy_on_write), 0);
}

// On the filesystem the tests run on (TMPDIR), a new segment is made as
// its row says: reserved on ext4, XFS and btrfs, No_COW on btrfs, sparse on
// tmpfs.
TEST_F(journal_filesystems, a_segment_on_the_real_filesystem_is_made_as_its_row_says) {
  struct statfs fs {};
  ASSERT_EQ(::statfs(dir.path().c_str(), &fs), 0);
  const auto type = static_cast<std::uint64_t>(fs.f_type);
  if (type != EXT4_SUPER_MAGIC && type != XFS_SUPER_MAGIC && type != BTRFS_SUPER_MAGIC &&
      type != TMPFS_MAGIC)
    GTEST_SKIP() << "the tests' directory is on a filesystem the journal has no row for";
  if (auto why = needs_preallocation(dir.path()); !why.empty()) GTEST_SKIP() << why;
  auto log = journal::open(dir.path(), {.segment_size = segment});
  log.write(bytes_of("one"));
  auto segments = segment_files(dir.path());
  ASSERT_EQ(segments.size(), 1u);
  int fd = ::open(segments[0].c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0) << std::strerror(errno);
  struct stat st {};
  int flags = 0;
  bool stated = ::fstat(fd, &st) == 0;
  bool flags_read = ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
  ::close(fd);
  ASSERT_TRUE(stated);
  const auto allocated = static_cast<std::uint64_t>(st.st_blocks) * 512;
  if (type == TMPFS_MAGIC) {
    EXPECT_LT(allocated, segment / 4);
  } else {
    EXPECT_GE(allocated, segment);
  }
  if (type == BTRFS_SUPER_MAGIC) {
    ASSERT_TRUE(flags_read);
    EXPECT_NE(flags & FS_NOCOW_FL, 0);
  } else if (flags_read) {
    EXPECT_EQ(flags & FS_NOCOW_FL, 0);
  }
}

}  // namespace
