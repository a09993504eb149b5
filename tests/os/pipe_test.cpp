// Writing to descriptors that cannot seek: pipes, FIFOs, and standard output
// borrowed with file::borrow. Through the fake seam: writev's partial
// transfers of every length, EINTR, EAGAIN on a non-blocking pipe, EPIPE.
// On real pipes: megabytes through a writer with a reader thread, a reader
// that has gone, a FIFO, write_behind, and the options that cannot work.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <future>
#include <sluice/sluice.hpp>
#include <string>
#include <string_view>
#include <utility>

#include "support/fake_sys.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::file;
using sluice::writer;

// Reads `fd` to its end on another thread.
std::future<std::string> reader(int fd) {
  return std::async(std::launch::async, [fd] { return read_to_end(fd); });
}

// SIGPIPE ignored while it lives, so that writing to a pipe without a
// reader fails with EPIPE instead of ending the test program.
class ignored_sigpipe {
 public:
  ignored_sigpipe() { previous_ = std::signal(SIGPIPE, SIG_IGN); }
  ~ignored_sigpipe() { std::signal(SIGPIPE, previous_); }
  ignored_sigpipe(const ignored_sigpipe&) = delete;
  ignored_sigpipe& operator=(const ignored_sigpipe&) = delete;

 private:
  void (*previous_)(int);
};

// --- through the fake seam -----------------------------------------------

TEST(pipe_fake, writev_partial_transfers_of_every_length_are_continued) {
  std::string text = pattern(40, 3);
  std::string_view head(text.data(), 13), middle(text.data() + 13, 1), tail(text.data() + 14, 26);
  for (std::size_t k = 0; k <= text.size(); ++k) {
    pipe_ends ends;
    file out = file::borrow(ends.write_end(), "pipe");
    {
      fake_sys fake;
      fake.short_transfer(call::write_stream, 1, k);
      std::span<const std::byte> pieces[] = {bytes_of(head), bytes_of(middle), bytes_of(tail)};
      out.write_gather(pieces);
      EXPECT_EQ(fake.calls(call::write_at), 0);
      EXPECT_EQ(fake.calls(call::write_stream), k == text.size() ? 1 : 2) << k;
    }
    EXPECT_EQ(out.position(), text.size());
    out.close();
    EXPECT_EQ(read_to_end(ends.read_end(), text.size()), text) << "cut after " << k;
  }
}

TEST(pipe_fake, an_owned_pipe_switches_to_writev_after_one_espipe) {
  pipe_ends ends;
  file out(ends.take_write_end(), "pipe");
  EXPECT_FALSE(out.sequential());
  fake_sys fake;
  out.write(bytes_of("first "));
  EXPECT_TRUE(out.sequential());
  out.write(bytes_of("second"));
  EXPECT_EQ(fake.calls(call::write_at), 1);  // refused with ESPIPE, once
  ASSERT_EQ(fake.writes_at().size(), 1u);
  EXPECT_EQ(fake.writes_at()[0].error, ESPIPE);
  EXPECT_EQ(fake.calls(call::write_stream), 2);
  EXPECT_EQ(out.position(), 12u);
  EXPECT_TRUE(out.is_stream());
  EXPECT_EQ(fake.calls(call::facts), 0) << "the ESPIPE said it already";
  out.close();
  EXPECT_EQ(read_to_end(ends.read_end()), "first second");
}

TEST(pipe_fake, every_writev_interrupted_once_is_transparent) {
  pipe_ends ends;
  std::string sent;
  {
    fake_sys fake;
    fake.interrupt_every_write_stream();
    writer out(file::borrow(ends.write_end(), "pipe"), {.buffer_size = 100});
    for (int i = 0; i < 50; ++i) {
      std::string piece = pattern(37, static_cast<std::uint64_t>(i));
      out.write(piece);
      sent += piece;
    }
    out.close();
    EXPECT_GT(fake.calls(call::write_stream), 2);
    EXPECT_EQ(fake.calls(call::write_stream) % 2, 0) << "each call interrupted once, then done";
  }
  ::close(ends.take_write_end());
  EXPECT_EQ(read_to_end(ends.read_end()), sent);
}

TEST(pipe_fake, eagain_on_a_non_blocking_pipe_waits_in_poll_then_continues) {
  pipe_ends ends(O_NONBLOCK);
  fake_sys fake;
  fake.fail(call::write_stream, 1, EAGAIN);
  fake.short_transfer(call::write_stream, 2, 3);
  fake.fail(call::write_stream, 3, EAGAIN);
  file out = file::borrow(ends.write_end(), "pipe");
  out.write(bytes_of("non-blocking"));
  EXPECT_EQ(fake.calls(call::wait_ready), 2);
  EXPECT_EQ(fake.calls(call::write_stream), 4);
  EXPECT_EQ(read_to_end(ends.read_end(), 12), "non-blocking");
}

TEST(pipe_fake, eagain_is_reported_when_poll_fails) {
  pipe_ends ends(O_NONBLOCK);
  fake_sys fake;
  fake.fail(call::write_stream, 1, EAGAIN);
  fake.fail(call::wait_ready, 1, ENOMEM);
  file out = file::borrow(ends.write_end(), "the pipe");
  auto e = thrown<sluice::write_error>([&] { out.write(bytes_of("x")); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EAGAIN);
  EXPECT_NE(std::string(e->what()).find("write 'the pipe' at offset 0"), std::string::npos)
      << e->what();
}

TEST(pipe_fake, epipe_sticks_names_the_pipe_and_keeps_the_bytes_buffered) {
  pipe_ends ends;
  fake_sys fake;
  fake.short_transfer(call::write_stream, 1, 10);
  fake.fail(call::write_stream, 2, EPIPE);
  writer out(file::borrow(ends.write_end(), "standard output"), {.buffer_size = 64});
  std::string text = pattern(100, 5);
  auto e = thrown<sluice::write_error>([&] {
    out.write(std::string_view(text).substr(0, 60));
    out.flush();
  });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EPIPE);
  EXPECT_EQ(e->offset(), 10u);
  EXPECT_NE(std::string(e->what()).find("write 'standard output' at offset 10: Broken pipe"),
            std::string::npos)
      << e->what();
  EXPECT_EQ(out.tell() - out.buffered(), 10u);
  int writevs = fake.calls(call::write_stream);
  auto again = thrown<sluice::write_error>([&] { out.put('x'); });
  ASSERT_TRUE(again);
  EXPECT_STREQ(again->what(), e->what());
  EXPECT_THROW(out.close(), sluice::write_error);
  EXPECT_EQ(fake.calls(call::write_stream), writevs) << "a write was retried";
  EXPECT_EQ(read_to_end(ends.read_end(), 10), text.substr(0, 10));
}

// --- real pipes ------------------------------------------------------------

// What the writer tests below send: every kind of call, `mib` MiB and more.
std::string write_everything(writer& out, std::size_t mib) {
  std::string sent;
  std::string line = "All work and no play makes Jack a dull boy.\n";
  std::string large = pattern(out.buffer_size() * 3 + 7, 9);
  for (std::size_t i = 0; sent.size() < mib * 1024 * 1024; ++i) {
    out.write(line);
    out.print(i);
    out.put('\n');
    sent += line + std::to_string(i) + '\n';
    if (i % 5000 == 0) {
      out.write(large);  // skips the buffer: gathered
      out.print(0.25);
      out.flush();
      sent += large + "0.25";
    }
    EXPECT_EQ(out.tell(), sent.size());
  }
  return sent;
}

TEST(pipe_real, megabytes_through_a_writer_reach_the_reader_intact) {
  pipe_ends ends;
  auto got = reader(ends.read_end());
  std::string sent;
  {
    writer out(file::borrow(ends.write_end(), "pipe"));
    sent = write_everything(out, 6);
    out.close();
  }
  ::close(ends.take_write_end());
  EXPECT_TRUE(got.get() == sent) << "the bytes read differ from those written";
}

TEST(pipe_real, write_behind_on_a_pipe_keeps_the_order) {
  pipe_ends ends;
  auto got = reader(ends.read_end());
  std::string sent;
  {
    writer out(file::borrow(ends.write_end(), "pipe"),
               {.buffer_size = 64 * 1024, .write_behind = true});
    sent = write_everything(out, 6);
    out.close();
  }
  ::close(ends.take_write_end());
  EXPECT_TRUE(got.get() == sent) << "the bytes read differ from those written";
}

TEST(pipe_real, a_non_blocking_pipe_fuller_than_its_buffer_is_waited_for) {
  pipe_ends ends(O_NONBLOCK);
  ::fcntl(ends.read_end(), F_SETFL, 0);  // the reader blocks; the writer does not
  auto got = reader(ends.read_end());
  std::string sent = pattern(4 * 1024 * 1024, 4);
  {
    writer out(file::borrow(ends.write_end(), "pipe"));
    out.write(sent);
    out.close();
  }
  ::close(ends.take_write_end());
  EXPECT_TRUE(got.get() == sent);
}

TEST(pipe_real, a_reader_that_has_gone_is_epipe_naming_the_pipe) {
  ignored_sigpipe ignore;
  pipe_ends ends;
  ends.close_read();
  writer out(file::borrow(ends.write_end(), "standard output"));
  out.write(std::string_view("lost"));
  auto e = thrown<sluice::write_error>([&] { out.flush(); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EPIPE);
  EXPECT_NE(std::string(e->what()).find("write 'standard output' at offset 0"), std::string::npos)
      << e->what();
  EXPECT_EQ(out.buffered(), 4u);
  EXPECT_THROW(out.close(), sluice::write_error);
}

TEST(pipe_real, a_borrowed_descriptor_stays_open_and_its_offset_moves) {
  temp_dir dir;
  int fd = ::open((dir / "out").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::write(fd, "head\n", 5), 5);
  {
    writer out(file::borrow(fd, "standard output"), {.buffer_size = 16});
    out.write(std::string_view("through the writer, past its buffer\n"));
    EXPECT_EQ(out.tell(), 36u);
    out.close();
  }
  ASSERT_EQ(::write(fd, "tail\n", 5), 5) << "the writer closed the descriptor";
  ::close(fd);
  EXPECT_EQ(read_all(dir / "out"), "head\nthrough the writer, past its buffer\ntail\n");
}

// io_uring writes at offsets counted from 0; the descriptor's own offset is
// past "head\n", so only the thread may serve a borrowed file.
TEST(pipe_real, write_behind_on_a_borrowed_regular_file_writes_at_its_offset) {
  temp_dir dir;
  int fd = ::open((dir / "out").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::write(fd, "head\n", 5), 5);
  std::string sent = pattern(100'000);
  {
    writer out(file::borrow(fd, "standard output"), {.buffer_size = 4096, .write_behind = true});
    EXPECT_EQ(out.write_behind_engine(), sluice::write_behind_engine::thread);
    out.write(std::string_view(sent).substr(0, 50'000));
    for (char c : std::string_view(sent).substr(50'000)) out.put(c);
    out.close();
  }
  ASSERT_EQ(::write(fd, "tail\n", 5), 5);
  ::close(fd);
  EXPECT_TRUE(read_all(dir / "out") == "head\n" + sent + "tail\n");
}

TEST(pipe_real, a_borrowed_regular_file_can_be_made_durable) {
  temp_dir dir;
  int fd = ::open((dir / "out").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  writer out(file::borrow(fd, "out"), {.durability = sluice::durability::write_through});
  out.write(std::string_view("durable"));
  out.close();
  ::close(fd);
  EXPECT_EQ(read_all(dir / "out"), "durable");
}

// A FIFO at dir/fifo whose reading end is open (non-blocking, so that
// neither open waits for the other).
class fifo_test : public dir_test {
 protected:
  void SetUp() override {
    path = dir / "fifo";
    ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
    read_fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    ASSERT_GE(read_fd, 0);
    ::fcntl(read_fd, F_SETFL, 0);
  }
  void TearDown() override { ::close(read_fd); }

  std::filesystem::path path;
  int read_fd = -1;
};

TEST_F(fifo_test, a_writer_opened_on_a_fifo_path_writes_through_it) {
  std::future<std::string> got;
  std::string sent;
  {
    writer out(path, {.preallocate = 1 << 20, .caching = sluice::caching::no_cache});
    // Only now: a read from a FIFO that no writer has open yet sees its end.
    got = reader(read_fd);
    EXPECT_FALSE(out.preallocated()) << "a FIFO has nothing to reserve";
    sent = write_everything(out, 3);
    out.close();
  }
  EXPECT_TRUE(got.get() == sent);
}

TEST_F(fifo_test, options_that_cannot_work_on_a_fifo_are_refused_by_name) {
  auto durable =
      thrown([&] { writer out(path, {.durability = sluice::durability::data_on_close}); });
  ASSERT_TRUE(durable);
  EXPECT_EQ(durable->code().value(), EINVAL);
  EXPECT_NE(std::string(durable->what()).find("durability::data_on_close needs a file"),
            std::string::npos)
      << durable->what();
  auto replace = thrown([&] { writer out(path, {.atomic_replace = true}); });
  ASSERT_TRUE(replace);
  EXPECT_EQ(replace->code().value(), EINVAL);
  EXPECT_NE(std::string(replace->what()).find("atomic_replace needs a regular file"),
            std::string::npos)
      << replace->what();
  auto direct = thrown([&] { writer out(path, {.caching = sluice::caching::direct}); });
  ASSERT_TRUE(direct);
  EXPECT_EQ(direct->code().value(), EINVAL);
  EXPECT_NE(std::string(direct->what()).find("direct"), std::string::npos) << direct->what();
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced";
}

}  // namespace
