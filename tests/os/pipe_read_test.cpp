// Reading descriptors that cannot seek, and borrowed ones, with
// file::read_at: the next bytes at the descriptor's own offset (readv).
// Through the fake seam: the one ESPIPE that tells an owned pipe, readv's
// short transfers of every length, EINTR, EAGAIN on a non-blocking pipe, EIO
// naming the offset; read_some_at returning after the first bytes. On real pipes and FIFOs:
// megabytes in odd pieces from a writer thread, end of file, and a borrowed file read from its
// offset.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sluice/sluice.hpp>
#include <span>
#include <string>
#include <string_view>

#include "support/fake_sys.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::file;

// Reads `f` with read_at, `chunk` bytes a call, the offset counting the
// bytes read, until a read comes back short: the end.
std::string read_in_chunks(file& f, std::size_t chunk) {
  std::string all;
  std::string buffer(chunk, '\0');
  for (;;) {
    std::size_t got = f.read_at(std::as_writable_bytes(std::span(buffer)), all.size());
    all.append(buffer, 0, got);
    if (got < chunk) return all;
  }
}

// --- through the fake seam -----------------------------------------------

TEST(pipe_read_fake, a_borrowed_pipe_is_read_in_order_with_readv_whatever_the_offset) {
  pipe_ends ends;
  ASSERT_TRUE(write_pieces(ends.write_end(), "first second", 100));
  file in = file::borrow(ends.read_end(), "pipe");
  fake_sys fake;
  EXPECT_EQ(read_text(in, 6, 4096), "first ");
  EXPECT_EQ(read_text(in, 6, 0), "second");
  EXPECT_EQ(fake.calls(call::read_stream), 2);
  EXPECT_EQ(fake.calls(call::read_at), 0);
}

TEST(pipe_read_fake, an_owned_pipe_switches_to_readv_after_one_espipe) {
  pipe_ends ends;
  ASSERT_TRUE(write_pieces(ends.write_end(), "first second", 100));
  file in(::dup(ends.read_end()), "pipe");
  EXPECT_FALSE(in.sequential());
  fake_sys fake;
  EXPECT_EQ(read_text(in, 6, 0), "first ");
  EXPECT_TRUE(in.sequential());
  EXPECT_EQ(read_text(in, 6, 6), "second");
  EXPECT_EQ(fake.calls(call::read_at), 1) << "refused with ESPIPE, once";
  EXPECT_EQ(fake.calls(call::read_stream), 2);
  EXPECT_TRUE(in.is_stream());
  EXPECT_EQ(fake.calls(call::facts), 0) << "the ESPIPE said it already";
}

TEST(pipe_read_fake, readv_short_transfers_of_every_length_are_continued) {
  std::string text = pattern(40, 5);
  // A read of nothing is the end of the file: the shortest transfer is 1.
  for (std::size_t k = 1; k <= text.size(); ++k) {
    pipe_ends ends;
    ASSERT_TRUE(write_pieces(ends.write_end(), text, text.size()));
    file in = file::borrow(ends.read_end(), "pipe");
    fake_sys fake;
    fake.short_transfer(call::read_stream, 1, k);
    EXPECT_EQ(read_text(in, text.size(), 0), text) << "cut after " << k;
    EXPECT_EQ(fake.calls(call::read_stream), k == text.size() ? 1 : 2) << k;
  }
}

TEST(pipe_read_fake, an_interrupted_readv_is_restarted) {
  pipe_ends ends;
  ASSERT_TRUE(write_pieces(ends.write_end(), "interrupted", 100));
  file in = file::borrow(ends.read_end(), "pipe");
  fake_sys fake;
  fake.fail(call::read_stream, 1, EINTR);
  EXPECT_EQ(read_text(in, 11, 0), "interrupted");
  EXPECT_EQ(fake.calls(call::read_stream), 2);
}

TEST(pipe_read_fake, eio_names_the_offset_of_the_first_byte_not_read) {
  pipe_ends ends;
  ASSERT_TRUE(write_pieces(ends.write_end(), "0123456789", 100));
  file in = file::borrow(ends.read_end(), "the pipe");
  fake_sys fake;
  fake.short_transfer(call::read_stream, 1, 4);
  fake.fail(call::read_stream, 2, EIO);
  std::byte buffer[10];
  auto e = thrown([&] { in.read_at(buffer, 100); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_NE(std::string(e->what()).find("read 'the pipe' at offset 104"), std::string::npos)
      << e->what();
}

TEST(pipe_read_fake, eagain_on_a_non_blocking_pipe_waits_in_poll_then_continues) {
  pipe_ends ends(O_NONBLOCK);
  ASSERT_TRUE(write_pieces(ends.write_end(), "non-blocking", 100));
  file in = file::borrow(ends.read_end(), "pipe");
  fake_sys fake;
  fake.fail(call::read_stream, 1, EAGAIN);
  fake.short_transfer(call::read_stream, 2, 3);
  fake.fail(call::read_stream, 3, EAGAIN);
  EXPECT_EQ(read_text(in, 12, 0), "non-blocking");
  EXPECT_EQ(fake.calls(call::wait_ready), 2);
  EXPECT_EQ(fake.calls(call::read_stream), 4);
}

TEST(pipe_read_fake, eagain_is_reported_when_poll_fails) {
  pipe_ends ends(O_NONBLOCK);
  file in = file::borrow(ends.read_end(), "pipe");
  fake_sys fake;
  fake.fail(call::read_stream, 1, EAGAIN);
  fake.fail(call::wait_ready, 1, ENOMEM);
  std::byte buffer[4];
  auto e = thrown([&] { in.read_at(buffer, 0); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EAGAIN);
}

TEST(pipe_read_fake, read_some_at_returns_after_the_first_readv_that_reads_something) {
  pipe_ends ends(O_NONBLOCK);
  ASSERT_TRUE(write_pieces(ends.write_end(), "0123456789", 100));
  file in = file::borrow(ends.read_end(), "pipe");
  fake_sys fake;
  fake.fail(call::read_stream, 1, EINTR);
  fake.fail(call::read_stream, 2, EAGAIN);
  fake.short_transfer(call::read_stream, 3, 4);
  std::string buffer(10, '\0');
  EXPECT_EQ(in.read_some_at(std::as_writable_bytes(std::span(buffer)), 0), 4u);
  EXPECT_EQ(buffer.substr(0, 4), "0123");
  EXPECT_EQ(fake.calls(call::read_stream), 3) << "EINTR, EAGAIN, then 4 bytes: done";
  EXPECT_EQ(fake.calls(call::wait_ready), 1);
  EXPECT_EQ(in.read_some_at(std::as_writable_bytes(std::span(buffer)), 4), 6u);
  EXPECT_EQ(buffer.substr(0, 6), "456789");
}

TEST(pipe_read_fake, read_some_at_names_the_offset_of_a_failure) {
  pipe_ends ends;
  file in = file::borrow(ends.read_end(), "the pipe");
  fake_sys fake;
  fake.fail(call::read_stream, 1, EIO);
  std::byte buffer[10];
  auto e = thrown([&] { in.read_some_at(buffer, 100); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_NE(std::string(e->what()).find("read 'the pipe' at offset 100"), std::string::npos)
      << e->what();
}

// --- real pipes, FIFOs and files -----------------------------------------

TEST(pipe_read_real, read_some_at_returns_what_has_arrived_while_the_writer_holds_the_pipe) {
  pipe_ends ends;
  paced_writer writer(ends.take_write_end(), {"hello", "world!"});
  file in = file::borrow(ends.read_end(), "pipe");
  std::string buffer(100, '\0');
  auto into = std::as_writable_bytes(std::span(buffer));
  EXPECT_EQ(in.read_some_at(into, 0), 5u);
  writer.received();
  EXPECT_EQ(in.read_some_at(into, 5), 6u);
  EXPECT_EQ(buffer.substr(0, 6), "world!");
  EXPECT_EQ(in.read_some_at(into, 11), 0u) << "the writer closed: the end";
  EXPECT_FALSE(writer.gave_up()) << "read_some_at waited for more than had arrived";
}

TEST(pipe_read_real, read_some_at_on_a_regular_file_reads_all_it_can) {
  temp_dir dir;
  write_all(dir / "f", pattern(1000, 3));
  file in = file::open(dir / "f", {.mode = sluice::open_mode::read_only});
  std::string buffer(600, '\0');
  EXPECT_EQ(in.read_some_at(std::as_writable_bytes(std::span(buffer)), 500), 500u);
  EXPECT_EQ(buffer.substr(0, 500), pattern(1000, 3).substr(500));
  EXPECT_EQ(in.read_some_at(std::as_writable_bytes(std::span(buffer)), 1000), 0u);
}

TEST(pipe_read_real, megabytes_in_odd_pieces_arrive_intact_and_in_order) {
  std::string text = pattern(8 << 20, 9);
  pipe_ends ends;
  sender sending([&] { return ends.take_write_end(); }, text, 10007);
  file in = file::borrow(ends.read_end(), "pipe");
  std::string got;
  EXPECT_NO_THROW(got = read_in_chunks(in, 1 << 20));
  ends.close_read();
  sending.join();
  EXPECT_EQ(got.size(), text.size());
  EXPECT_TRUE(got == text) << "the bytes differ";
}

TEST(pipe_read_real, the_end_of_a_pipe_is_a_short_read_then_nothing) {
  pipe_ends ends;
  ASSERT_TRUE(write_pieces(ends.write_end(), "abc", 100));
  ends.close_write();
  file in = file::borrow(ends.read_end(), "pipe");
  EXPECT_EQ(read_text(in, 10, 0), "abc");
  EXPECT_EQ(read_text(in, 10, 3), "");
}

TEST(pipe_read_real, an_empty_non_blocking_pipe_is_waited_for) {
  std::string text = pattern(1 << 20, 4);
  pipe_ends ends(O_NONBLOCK);
  ::fcntl(ends.write_end(), F_SETFL, 0);  // the writer blocks; only the reader does not
  file in = file::borrow(ends.read_end(), "pipe");
  sender sending([&] { return ends.take_write_end(); }, text, 4099);
  std::string got;
  EXPECT_NO_THROW(got = read_in_chunks(in, 1 << 16));
  ends.close_read();
  sending.join();
  EXPECT_TRUE(got == text) << got.size() << " bytes instead of " << text.size();
}

using pipe_read_dir = dir_test;

TEST_F(pipe_read_dir, a_fifo_opened_by_path_is_read_to_its_end) {
  auto path = dir / "fifo";
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  std::string text = pattern(3 << 20, 2);
  // Its open waits for the reader's.
  sender sending([&] { return ::open(path.c_str(), O_WRONLY | O_CLOEXEC); }, text, 65537);
  file in = file::open(path, {.mode = sluice::open_mode::read_only});
  std::string got;
  EXPECT_NO_THROW(got = read_in_chunks(in, 1 << 20));
  EXPECT_TRUE(in.sequential());
  in.close();
  sending.join();
  EXPECT_TRUE(got == text) << got.size() << " bytes instead of " << text.size();
}

TEST_F(pipe_read_dir, a_borrowed_file_is_read_from_its_offset_which_moves) {
  write_all(dir / "numbers", "0123456789");
  int fd = ::open((dir / "numbers").c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::lseek(fd, 4, SEEK_SET), 4);  // an earlier reader took 4 bytes
  {
    file in = file::borrow(fd, "numbers");
    EXPECT_EQ(read_text(in, 3, 0), "456");
    EXPECT_EQ(read_text(in, 10, 3), "789");
  }
  EXPECT_EQ(::lseek(fd, 0, SEEK_CUR), 10);
  ::close(fd);
}

}  // namespace
