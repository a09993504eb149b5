// file::read_gather: scatter reads into many buffers from an offset, through
// the one transfer loop. Through the fake seam: EINTR, short reads of every
// length, EIO naming the offset, more than sluice::detail::max_pieces buffers split into calls,
// the end of the file in the middle of a buffer, empty buffers; a pipe read
// with readv whatever the offset; a file that is not open.
#include <gtest/gtest.h>

#ifndef _WIN32
#include <unistd.h>
#endif

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <numeric>
#include <sluice/sluice.hpp>
#include <span>
#include <string>
#include <vector>

#include "support/fake_sys.hpp"
#include "support/platform.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::file;

class read_gather_test : public dir_test {
 protected:
  // A file holding `content`, open for reading.
  file open_with(const std::string& content) {
    write_all(dir / "data", content);
    return file::open(dir / "data", {.mode = sluice::open_mode::read_only});
  }
};

TEST_F(read_gather_test, fills_the_buffers_in_order_from_the_offset_in_one_preadv) {
  std::string text = pattern(1000);
  file f = open_with(text);
  scatter into({10, 300, 1, 89});
  fake_sys fake;
  EXPECT_EQ(f.read_gather(into.buffers(), 100), 400u);
  EXPECT_EQ(into.joined(), text.substr(100, 400));
  EXPECT_EQ(fake.calls(call::read_at), 1);
  EXPECT_EQ(f.position(), 0u) << "a seekable file's position is not used";
}

TEST_F(read_gather_test, short_reads_of_every_length_are_continued) {
  std::string text = pattern(60, 3);
  file f = open_with(text);
  for (std::size_t k = 1; k < text.size(); ++k) {
    scatter into({7, 20, 1, 32});
    fake_sys fake;
    fake.short_transfer(call::read_at, 1, k);
    EXPECT_EQ(f.read_gather(into.buffers(), 0), text.size()) << "cut after " << k;
    EXPECT_EQ(into.joined(), text) << "cut after " << k;
    EXPECT_EQ(fake.calls(call::read_at), 2) << k;
  }
}

TEST_F(read_gather_test, interrupted_reads_are_restarted) {
  std::string text = pattern(100, 4);
  file f = open_with(text);
  scatter into({50, 50});
  fake_sys fake;
  fake.fail(call::read_at, 1, EINTR);
  fake.short_transfer(call::read_at, 2, 30);
  fake.fail(call::read_at, 3, EINTR);
  EXPECT_EQ(f.read_gather(into.buffers(), 0), 100u);
  EXPECT_EQ(into.joined(), text);
  EXPECT_EQ(fake.calls(call::read_at), 4);
}

TEST_F(read_gather_test, eio_names_the_path_and_the_offset_of_the_first_byte_not_read) {
  std::string text = pattern(100, 5);
  file f = open_with(text);
  scatter into({20, 20, 20});
  fake_sys fake;
  fake.short_transfer(call::read_at, 1, 25);
  fake.fail(call::read_at, 2, EIO);
  auto e = thrown([&] { f.read_gather(into.buffers(), 10); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code(), std::error_code(EIO, std::generic_category()));
  EXPECT_EQ(std::string(e->what()),
            "sluice: read " + quoted(dir / "data") + " at offset 35: " + std::strerror(EIO));
  EXPECT_EQ(into.joined().substr(0, 25), text.substr(10, 25)) << "what was read is kept";
}

TEST_F(read_gather_test, more_than_iov_max_buffers_are_read_iov_max_a_call) {
  std::size_t count = 2 * sluice::detail::max_pieces + 5;
  std::string text = pattern(3 * count, 6);
  file f = open_with(text);
  // Pieces of 1, 2 and 3 bytes, so that each call's size tells its buffers.
  std::vector<std::size_t> sizes(count);
  for (std::size_t i = 0; i < count; ++i) sizes[i] = 1 + i % 3;
  scatter into(sizes);
  std::vector<std::size_t> requested;
  fake_sys fake;
  fake.on_read_at([&](auto, std::int64_t, std::size_t n) {
    requested.push_back(n);
    return sluice_test::transfer_action{};
  });
  auto sum = [&](std::size_t from, std::size_t to) {
    return std::accumulate(sizes.begin() + from, sizes.begin() + to, std::size_t{0});
  };
  std::size_t total = sum(0, count);
  ASSERT_EQ(f.read_gather(into.buffers(), 7), total);
  EXPECT_EQ(into.joined(), text.substr(7, total));
  ASSERT_EQ(requested.size(), 3u);
  EXPECT_EQ(requested[0], sum(0, sluice::detail::max_pieces));
  EXPECT_EQ(requested[1], sum(sluice::detail::max_pieces, 2 * sluice::detail::max_pieces));
  EXPECT_EQ(requested[2], sum(2 * sluice::detail::max_pieces, count));
}

TEST_F(read_gather_test, the_end_of_the_file_in_a_buffer_returns_the_bytes_before_it) {
  std::string text = pattern(50, 7);
  file f = open_with(text);
  scatter into({30, 30, 30});
  fake_sys fake;
  EXPECT_EQ(f.read_gather(into.buffers(), 5), 45u);
  EXPECT_EQ(into.joined(), text.substr(5) + std::string(45, '.'));
  EXPECT_EQ(fake.calls(call::read_at), 2) << "the data, then the read of nothing that is the end";
  scatter past({4});
  EXPECT_EQ(f.read_gather(past.buffers(), 50), 0u);
  EXPECT_EQ(f.read_gather(past.buffers(), 1000), 0u);
}

TEST_F(read_gather_test, a_cut_read_is_continued_up_to_the_end_of_the_file) {
  std::string text = pattern(40, 8);
  file f = open_with(text);
  scatter into({16, 16, 16});
  fake_sys fake;
  fake.short_transfer(call::read_at, 1, 16);  // a cut that is not the end
  EXPECT_EQ(f.read_gather(into.buffers(), 0), 40u);
  EXPECT_EQ(into.joined().substr(0, 40), text);
  EXPECT_EQ(fake.calls(call::read_at), 3);
}

TEST_F(read_gather_test, empty_buffers_are_skipped_and_none_read_nothing_without_a_call) {
  std::string text = pattern(20, 9);
  file f = open_with(text);
  scatter into({0, 5, 0, 0, 5, 0});
  fake_sys fake;
  EXPECT_EQ(f.read_gather(into.buffers(), 2), 10u);
  EXPECT_EQ(into.joined(), text.substr(2, 10));
  EXPECT_EQ(fake.calls(call::read_at), 1);
  scatter empty({0, 0});
  EXPECT_EQ(f.read_gather(empty.buffers(), 0), 0u);
  EXPECT_EQ(f.read_gather({}, 0), 0u);
  EXPECT_EQ(fake.calls(call::read_at), 1);
}

TEST_F(read_gather_test, a_file_not_open_is_refused_with_ebadf) {
  file f;
  scatter into({4});
  auto e = thrown([&] { f.read_gather(into.buffers(), 0); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EBADF);
}

#ifndef _WIN32
TEST(read_gather_pipe, a_borrowed_pipe_is_read_with_readv_in_order_whatever_the_offset) {
  std::string text = pattern(300, 10);
  pipe_ends ends;
  ASSERT_TRUE(write_pieces(ends.write_end(), text, text.size()));
  ends.close_write();
  file in = file::borrow(ends.read_end(), "pipe");
  scatter first({100, 50});
  scatter rest({100, 100});
  fake_sys fake;
  fake.short_transfer(call::read_stream, 1, 60);
  fake.fail(call::read_stream, 2, EINTR);
  EXPECT_EQ(in.read_gather(first.buffers(), 4096), 150u);
  EXPECT_EQ(first.joined(), text.substr(0, 150));
  EXPECT_EQ(in.read_gather(rest.buffers(), 0), 150u) << "short only at the end";
  EXPECT_EQ(rest.joined(), text.substr(150) + std::string(50, '.'));
  EXPECT_EQ(fake.calls(call::read_at), 0);
}

TEST(read_gather_pipe, an_owned_pipe_switches_to_readv_after_one_espipe) {
  std::string text = pattern(64, 11);
  pipe_ends ends;
  ASSERT_TRUE(write_pieces(ends.write_end(), text, text.size()));
  file in(::dup(ends.read_end()), "pipe");
  scatter into({32, 32});
  fake_sys fake;
  EXPECT_EQ(in.read_gather(into.buffers(), 0), 64u);
  EXPECT_EQ(into.joined(), text);
  EXPECT_TRUE(in.sequential());
  EXPECT_EQ(fake.calls(call::read_at), 1) << "refused with ESPIPE, once";
  EXPECT_EQ(fake.calls(call::read_stream), 1);
}

TEST(read_gather_pipe, eio_on_a_pipe_names_the_counted_offset) {
  pipe_ends ends;
  ASSERT_TRUE(write_pieces(ends.write_end(), "0123456789", 100));
  file in = file::borrow(ends.read_end(), "the pipe");
  scatter into({5, 5});
  fake_sys fake;
  fake.short_transfer(call::read_stream, 1, 7);
  fake.fail(call::read_stream, 2, EIO);
  auto e = thrown([&] { in.read_gather(into.buffers(), 100); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_NE(std::string(e->what()).find("read 'the pipe' at offset 107"), std::string::npos)
      << e->what();
}
#else
SLUICE_SKIPPED_ON_WINDOWS(read_gather_pipe, pipe_tests, "reads a pipe(2) (pipe_ends, dup)")
#endif

}  // namespace
