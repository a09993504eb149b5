// detail::transfer and detail::restart_interrupted, called directly (the
// file and writer tests reach them only through sluice::file): every byte of
// the iovecs at the right offset however the kernel cuts the calls, at most
// sluice::detail::max_pieces buffers a call, EINTR restarted, a write of nothing tried once
// more, reads stopping at the end of the file, and what is returned on a
// failure.
#include "os/transfer.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstddef>
#include <string>
#include <vector>

#include "os/path_text.hpp"
#include "support/fake_sys.hpp"
#include "support/platform.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::detail::direction;
using sluice::detail::restart_interrupted;
using sluice::detail::transfer;

// `text` cut into iovecs of the given sizes, in order (the last one takes
// what is left).
std::vector<sluice::detail::io_piece> pieces(std::string& text,
                                             const std::vector<std::size_t>& sizes) {
  std::vector<sluice::detail::io_piece> iov;
  std::size_t at = 0;
  for (std::size_t size : sizes) {
    iov.push_back({text.data() + at, size});
    at += size;
  }
  iov.push_back({text.data() + at, text.size() - at});
  return iov;
}

// A handle on a fresh file of the test's directory, opened and closed by
// the backend itself.
class transfer_test : public dir_test {
 protected:
  void SetUp() override {
    fd_ = real().open(sluice::detail::working_directory,
                      sluice::detail::path_text(dir / "data").c_str(),
                      {.mode = sluice::detail::open_request::access::read_write,
                       .create = true,
                       .permissions = 0600});
    ASSERT_NE(fd_, sluice::detail::no_handle());
  }
  void TearDown() override { real().close(fd_); }
  sluice::detail::handle fd() const { return fd_; }
  std::string content() const { return read_all(dir / "data"); }
  static const sluice::detail::sys_table& real() { return sluice::detail::real_sys(); }

 private:
  sluice::detail::handle fd_ = sluice::detail::no_handle();
};

TEST_F(transfer_test, every_byte_goes_to_its_offset_through_short_writes_of_every_length) {
  std::string model = pattern(64);
  for (std::size_t cut = 0; cut < model.size(); ++cut) {
    ASSERT_EQ(real().resize(fd(), 0), 0);
    std::string text = model;
    auto iov = pieces(text, {5, 0, 20, 7});  // an empty buffer in the middle
    fake_sys fake;
    fake.short_transfer(call::write_at, 1, cut);
    auto result = transfer(fd(), direction::write, iov.data(), iov.size(), 100);
    EXPECT_EQ(result.done, model.size()) << "cut at " << cut;
    EXPECT_EQ(result.error, 0);
    EXPECT_FALSE(result.sequential);
    EXPECT_EQ(content(), std::string(100, '\0') + model) << "cut at " << cut;
    // The second call starts where the first stopped, with what was left of
    // the buffer it stopped in (after a write of nothing too: it is tried
    // once more).
    ASSERT_EQ(fake.writes_at().size(), 2u) << "cut at " << cut;
    EXPECT_EQ(fake.writes_at().back().offset, static_cast<off_t>(100 + cut));
    EXPECT_EQ(fake.writes_at().back().requested, model.size() - cut);
  }
}

TEST_F(transfer_test, more_than_iov_max_buffers_take_one_call_per_iov_max) {
  std::string text = pattern(2 * sluice::detail::max_pieces + 5);
  std::vector<sluice::detail::io_piece> iov;
  for (char& c : text) iov.push_back({&c, 1});
  fake_sys fake;
  auto result = transfer(fd(), direction::write, iov.data(), iov.size(), 0);
  EXPECT_EQ(result.done, text.size());
  EXPECT_EQ(result.error, 0);
  ASSERT_EQ(fake.writes_at().size(), 3u);
  EXPECT_EQ(fake.writes_at()[0].iov_count, sluice::detail::max_pieces);
  EXPECT_EQ(fake.writes_at()[1].iov_count, sluice::detail::max_pieces);
  EXPECT_EQ(fake.writes_at()[2].iov_count, 5);
  EXPECT_EQ(fake.writes_at()[1].offset, sluice::detail::max_pieces);
  EXPECT_EQ(content(), text);
}

TEST_F(transfer_test, an_interrupted_write_is_restarted_at_the_same_offset) {
  std::string text = pattern(300);
  auto iov = pieces(text, {100, 100});
  fake_sys fake;
  fake.interrupt_every_write_at();
  fake.short_transfer(call::write_at, 2, 150);  // the first call that reaches the OS
  auto result = transfer(fd(), direction::write, iov.data(), iov.size(), 0);
  EXPECT_EQ(result.done, text.size());
  EXPECT_EQ(result.error, 0);
  EXPECT_EQ(fake.calls(call::write_at), 4);  // EINTR, 150 bytes, EINTR, the rest
  EXPECT_EQ(content(), text);
}

TEST_F(transfer_test, a_write_of_nothing_twice_in_a_row_is_eio_after_what_was_written) {
  std::string text = pattern(100);
  auto iov = pieces(text, {});
  fake_sys fake;
  fake.short_transfer(call::write_at, 1, 30);
  fake.short_transfer(call::write_at, 2, 0);
  fake.short_transfer(call::write_at, 3, 0);
  auto result = transfer(fd(), direction::write, iov.data(), iov.size(), 0);
  EXPECT_EQ(result.done, 30u);
  EXPECT_EQ(result.error, EIO);
  EXPECT_EQ(fake.calls(call::write_at), 3);
  EXPECT_EQ(content(), text.substr(0, 30));
}

TEST_F(transfer_test, a_failure_returns_its_errno_and_the_bytes_before_it) {
  std::string text = pattern(100);
  auto iov = pieces(text, {10, 10});
  fake_sys fake;
  fake.short_transfer(call::write_at, 1, 25);
  fake.fail(call::write_at, 2, ENOSPC);
  auto result = transfer(fd(), direction::write, iov.data(), iov.size(), 7);
  EXPECT_EQ(result.done, 25u);
  EXPECT_EQ(result.error, ENOSPC);
  EXPECT_EQ(fake.calls(call::write_at), 2);  // never retried
  EXPECT_EQ(content(), std::string(7, '\0') + text.substr(0, 25));
}

TEST_F(transfer_test, eagain_waits_in_poll_then_continues) {
  std::string text = pattern(50);
  auto iov = pieces(text, {});
  fake_sys fake;
  fake.fail(call::write_at, 1, EAGAIN);
  auto result = transfer(fd(), direction::write, iov.data(), iov.size(), 0);
  EXPECT_EQ(result.error, 0);
  EXPECT_EQ(result.done, text.size());
  EXPECT_EQ(fake.calls(call::wait_ready), 1);
  EXPECT_EQ(content(), text);
}

TEST_F(transfer_test, eagain_is_returned_when_poll_fails) {
  std::string text = pattern(50);
  auto iov = pieces(text, {});
  fake_sys fake;
  fake.fail(call::write_at, 1, EAGAIN);
  fake.fail(call::wait_ready, 1, EINTR);  // restarted
  fake.fail(call::wait_ready, 2, ENOMEM);
  auto result = transfer(fd(), direction::write, iov.data(), iov.size(), 0);
  EXPECT_EQ(result.error, EAGAIN);
  EXPECT_EQ(result.done, 0u);
  EXPECT_EQ(fake.calls(call::wait_ready), 2);
}

#ifndef _WIN32
TEST_F(transfer_test, a_pipe_refusing_pwritev_is_written_with_writev_from_then_on) {
  pipe_ends pipe;
  std::string text = pattern(100);
  auto iov = pieces(text, {40});
  fake_sys fake;
  fake.short_transfer(call::write_stream, 1, 10);
  auto result = transfer(pipe.write_end(), direction::write, iov.data(), iov.size(), 500);
  EXPECT_EQ(result.done, text.size());
  EXPECT_EQ(result.error, 0);
  EXPECT_TRUE(result.sequential);
  EXPECT_EQ(fake.calls(call::write_at), 1);  // the ESPIPE
  EXPECT_EQ(fake.calls(call::write_stream), 2);
  pipe.close_write();
  EXPECT_EQ(read_to_end(pipe.read_end()), text);
}
#else
SLUICE_SKIPPED_ON_WINDOWS_F(transfer_test,
                            a_pipe_refusing_pwritev_is_written_with_writev_from_then_on,
                            "writes a pipe(2) (pipe_ends)")
#endif

TEST_F(transfer_test, sequential_writes_never_try_pwritev) {
  std::string text = pattern(20);
  auto iov = pieces(text, {});
  fake_sys fake;
  auto result = transfer(fd(), direction::write, iov.data(), iov.size(), 1000, true);
  EXPECT_EQ(result.done, text.size());
  EXPECT_TRUE(result.sequential);
  EXPECT_EQ(fake.calls(call::write_at), 0);
  EXPECT_EQ(content(), text);  // at the descriptor's own offset, not at 1000
}

TEST_F(transfer_test, a_read_continues_short_reads_and_stops_at_the_end_of_the_file) {
  std::string text = pattern(100);
  write_all(dir / "data", text);
  std::string got(150, '\0');
  auto iov = pieces(got, {30, 30});
  fake_sys fake;
  fake.short_transfer(call::read_at, 1, 45);
  fake.fail(call::read_at, 2, EINTR);
  auto result = transfer(fd(), direction::read, iov.data(), iov.size(), 20);
  EXPECT_EQ(result.error, 0);
  EXPECT_EQ(result.done, 80u);              // the file ends 80 bytes after offset 20
  EXPECT_EQ(fake.calls(call::read_at), 4);  // 45 bytes, EINTR, 35 bytes, end of file
  EXPECT_EQ(got.substr(0, 80), text.substr(20));
}

TEST(restart_interrupted, calls_again_while_eintr_and_returns_the_first_other_result) {
  int calls = 0;
  auto result = restart_interrupted([&] {
    ++calls;
    if (calls < 3) {
      errno = EINTR;
      return -1;
    }
    return 42;
  });
  EXPECT_EQ(result, 42);
  EXPECT_EQ(calls, 3);
}

TEST(restart_interrupted, another_failure_is_returned_at_once_with_its_errno) {
  int calls = 0;
  auto result = restart_interrupted([&] {
    ++calls;
    errno = EIO;
    return -1;
  });
  EXPECT_EQ(result, -1);
  EXPECT_EQ(errno, EIO);
  EXPECT_EQ(calls, 1);
}

}  // namespace
