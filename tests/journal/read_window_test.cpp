// The journal's read window (journal/read_window.hpp), called directly: the
// bytes it gives are the file's, it reads a buffer of at least 1 MiB at a
// time and never at or past its limit, and it finds a sparse file's data
// ranges without reading them.
#include "journal/read_window.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "support/fake_sys.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::detail::read_window;

constexpr std::size_t mib = std::size_t{1} << 20;

// One preadv that reached the fake: where, and how much it asked for.
struct read_call {
  std::int64_t offset;
  std::size_t requested;
  bool operator==(const read_call&) const = default;
};

// A file of the test's directory holding `content_`, open for reading, and
// a fake seam that records every preadv.
class read_window_test : public dir_test {
 protected:
  void SetUp() override {
    write_all(dir / "segment", content_);
    source_ = sluice::file::open(dir / "segment", {.mode = sluice::open_mode::read_only});
    fake_.on_read_at([this](auto, std::int64_t offset, std::size_t requested) {
      reads_.push_back({offset, requested});
      return transfer_action{};
    });
  }
  std::string expected(std::uint64_t offset, std::size_t n) const {
    return content_.substr(static_cast<std::size_t>(offset), n);
  }

  const std::string content_ = pattern(3 * mib + 100, 7);
  sluice::file source_;
  fake_sys fake_;
  std::vector<read_call> reads_;
};

TEST_F(read_window_test, pieces_inside_one_window_cost_one_read) {
  read_window window(source_, content_.size());
  for (std::uint64_t at = 0; at + 1000 <= mib; at += 1000)
    ASSERT_EQ(text_of(window.bytes(at, 1000)), expected(at, 1000)) << at;
  EXPECT_EQ(reads_, (std::vector<read_call>{{0, mib}}));
}

TEST_F(read_window_test, a_piece_outside_the_window_refills_it_from_that_offset) {
  read_window window(source_, content_.size());
  EXPECT_EQ(text_of(window.bytes(10, 100)), expected(10, 100));
  EXPECT_EQ(text_of(window.bytes(2 * mib, 100)), expected(2 * mib, 100));    // past the window
  EXPECT_EQ(text_of(window.bytes(5, 10)), expected(5, 10));                  // before its start
  EXPECT_EQ(text_of(window.bytes(mib - 50, 100)), expected(mib - 50, 100));  // across its end
  EXPECT_EQ(reads_, (std::vector<read_call>{{10, mib}, {2 * mib, mib}, {5, mib}, {mib - 50, mib}}));
}

TEST_F(read_window_test, a_piece_larger_than_the_window_is_read_whole) {
  read_window window(source_, content_.size());
  EXPECT_EQ(text_of(window.bytes(1, 2 * mib)), expected(1, 2 * mib));
  EXPECT_EQ(reads_, (std::vector<read_call>{{1, 2 * mib}}));
}

TEST_F(read_window_test, nothing_at_or_past_the_limit_is_read_or_given) {
  std::uint64_t limit = mib + 30;  // the file goes on
  read_window window(source_, limit);
  EXPECT_EQ(text_of(window.bytes(mib, 100)), expected(mib, 30));
  EXPECT_EQ(reads_, (std::vector<read_call>{{mib, 30}}));
  EXPECT_TRUE(window.bytes(limit, 1).empty());
  EXPECT_TRUE(window.bytes(limit + 5, 1).empty());
  EXPECT_EQ(reads_.size(), 1u);
}

// Lowered after the buffer was filled past it, the limit still holds.
TEST_F(read_window_test, limit_to_only_lowers_the_limit) {
  read_window window(source_, 1000);
  EXPECT_EQ(text_of(window.bytes(0, 10)), expected(0, 10));  // reads [0, 1000)
  window.limit_to(2000);
  EXPECT_EQ(window.limit(), 1000u);
  window.limit_to(600);
  EXPECT_EQ(window.limit(), 600u);
  EXPECT_EQ(text_of(window.bytes(500, 200)), expected(500, 100));
  EXPECT_TRUE(window.bytes(600, 1).empty());
  EXPECT_EQ(reads_, (std::vector<read_call>{{0, 1000}}));
}

TEST_F(read_window_test, a_file_shorter_than_the_limit_gives_what_it_has) {
  read_window window(source_, content_.size() + mib);
  std::uint64_t near_end = content_.size() - 40;
  EXPECT_EQ(text_of(window.bytes(near_end, 100)), expected(near_end, 40));
}

TEST_F(read_window_test, data_ranges_run_to_the_limit_where_the_filesystem_cannot_say) {
  read_window window(source_, 5000);
  fake_.fail(call::seek_region, 1, EINVAL);
  using ranges = std::vector<std::pair<std::uint64_t, std::uint64_t>>;
  EXPECT_EQ(window.data_ranges(100), (ranges{{100, 5000}}));
  EXPECT_EQ(fake_.calls(call::seek_region), 2);  // SEEK_DATA failed, SEEK_HOLE from the offset
  fake_.fail(call::seek_region, 3, ENXIO);       // nothing but holes from the offset on
  EXPECT_EQ(window.data_ranges(100), ranges{});
  EXPECT_TRUE(reads_.empty());
}

TEST_F(read_window_test, data_ranges_skip_the_holes_of_a_sparse_file) {
  auto path = dir / "sparse";
  {
    auto sparse = sluice::file::open(path);
    std::string block = pattern(4096, 3);
    sparse.write_at(bytes_of(block), 0);
    sparse.write_at(bytes_of(block), mib);
    sparse.resize(4 * mib);
  }
  auto sparse = sluice::file::open(path, {.mode = sluice::open_mode::read_only});
  // Asked of the backend itself, not through the fake: does the filesystem
  // report holes?
  std::int64_t hole = sluice::detail::real_sys().seek_region(sparse.native_handle(), 0,
                                                             sluice::detail::region::hole);
  if (hole < 0 || hole >= static_cast<std::int64_t>(mib))
    GTEST_SKIP() << "the filesystem does not report the holes of a sparse file";
  read_window window(sparse, 3 * mib);
  auto ranges = window.data_ranges(0);
  using list = std::vector<std::pair<std::uint64_t, std::uint64_t>>;
  // Exactly the two blocks written on most filesystems; on any, both
  // covered, the holes between and after them not, in order and within
  // the limit.
  auto covers = [&](std::uint64_t offset) {
    for (auto [begin, end] : ranges)
      if (begin <= offset && offset < end) return true;
    return false;
  };
  EXPECT_TRUE(covers(0) && covers(4095) && covers(mib) && covers(mib + 4095));
  EXPECT_FALSE(covers(mib / 2) || covers(2 * mib));
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    EXPECT_LT(ranges[i].first, ranges[i].second);
    EXPECT_LE(ranges[i].second, 3 * mib);
    if (i > 0) {
      EXPECT_LT(ranges[i - 1].second, ranges[i].first);
    }
  }
  auto from_inside = window.data_ranges(mib + 100);
  ASSERT_FALSE(from_inside.empty());
  EXPECT_EQ(from_inside.front().first, mib + 100);
  EXPECT_EQ(window.data_ranges(2 * mib), list{});
  EXPECT_TRUE(reads_.empty());
}

TEST_F(read_window_test, cached_pages_are_dropped_from_the_next_page_to_the_limit) {
  read_window window(source_, 3 * 4096);
  window.drop_cached_after(100);
  EXPECT_EQ(fake_.calls(call::drop_cache), 1);
  window.drop_cached_after(2 * 4096 + 1);  // its page runs to the limit: nothing after it
  EXPECT_EQ(fake_.calls(call::drop_cache), 1);
}

}  // namespace
