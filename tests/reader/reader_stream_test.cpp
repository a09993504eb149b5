// sluice::reader on pipes, FIFOs and standard input: megabytes of lines
// sent in odd-sized pieces by a thread, read whole; standard input borrowed
// (file::borrow(STDIN_FILENO, ...)) and left open; through the fake seam,
// readv cut short at every length and interrupted, and EIO naming the pipe.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <sluice/sluice.hpp>
#include <string>

#include "support/fake_sys.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::file;
using sluice::reader;

// Lines of lengths 0 to 999, 3 MB or so.
std::string many_lines() {
  std::string text;
  for (std::size_t i = 0; text.size() < 3'000'000; ++i) {
    text += pattern(i % 1000, i);
    for (std::size_t j = text.size() - i % 1000; j < text.size(); ++j)
      if (text[j] == '\n') text[j] = ' ';
    text += '\n';
  }
  return text;
}

// Where `got` first differs from `want`, for a message that does not print
// megabytes.
std::string difference(const std::string& got, const std::string& want) {
  auto [a, b] = std::mismatch(got.begin(), got.end(), want.begin(), want.end());
  if (a == got.end() && b == want.end()) return "same";
  return "differs at byte " + std::to_string(a - got.begin()) + " of " +
         std::to_string(got.size()) + " (expected " + std::to_string(want.size()) + ")";
}

std::string all_lines(reader& in) {
  std::string all;
  while (auto line = in.read_line()) {
    all += *line;
    all += '\n';
  }
  return all;
}

TEST(reader_stream, a_pipe_fed_in_odd_pieces_is_read_whole) {
  std::string text = many_lines();
  for (std::size_t piece :
       {std::size_t{1}, std::size_t{7}, std::size_t{4093}, std::size_t{65537}}) {
    if (piece == 1) {  // a byte a write: keep it short
      text.resize(100'000);
      text.back() = '\n';
    }
    SCOPED_TRACE("pieces of " + std::to_string(piece));
    pipe_ends ends;
    int write_end = ends.take_write_end();
    sender feeding([write_end] { return write_end; }, text, piece);
    reader in(file(::dup(ends.read_end()), "pipe"), {.buffer_size = 64 * 1024});
    EXPECT_EQ(difference(all_lines(in), text), "same");
    EXPECT_EQ(in.tell(), text.size());
    EXPECT_TRUE(in.eof());
  }
}

// A reader on a pipe hands out each line as it arrives, as a protocol or a
// terminal needs, not once a buffer's worth has come.
TEST(reader_stream, a_line_is_returned_when_it_arrives_not_when_the_buffer_fills) {
  pipe_ends ends;
  paced_writer writer(ends.take_write_end(),
                      {"hello\n", "a line in two ", "pieces\nand a", "n end"});
  reader in(file::borrow(ends.read_end(), "pipe"));
  EXPECT_EQ(in.read_line(), "hello");
  writer.received();
  writer.received();  // the line ends in the next message: read_line waits for it
  EXPECT_EQ(in.read_line(), "a line in two pieces");
  writer.received();
  EXPECT_EQ(in.read_line(), "and an end");  // the writer closes after the last
  EXPECT_EQ(in.read_line(), std::nullopt);
  EXPECT_FALSE(writer.gave_up()) << "the reader waited for more than had arrived";
}

TEST(reader_stream, a_fifo_by_path_is_read_whole) {
  temp_dir dir;
  auto fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string text = many_lines();
  sender feeding([&] { return ::open(fifo.c_str(), O_WRONLY | O_CLOEXEC); }, text, 10000);
  reader in(fifo);
  EXPECT_EQ(difference(all_lines(in), text), "same");
}

TEST(reader_stream, standard_input_is_borrowed_read_and_left_open) {
  std::string text = many_lines();
  int saved = ::dup(STDIN_FILENO);
  ASSERT_GE(saved, 0);
  {
    pipe_ends ends;
    int write_end = ends.take_write_end();
    sender feeding([write_end] { return write_end; }, text, 3001);
    ASSERT_EQ(::dup2(ends.read_end(), STDIN_FILENO), STDIN_FILENO);
    {
      reader in(file::borrow(STDIN_FILENO, "standard input"));
      EXPECT_EQ(difference(all_lines(in), text), "same");
    }
    EXPECT_NE(::fcntl(STDIN_FILENO, F_GETFD), -1) << "standard input closed";
  }
  ASSERT_EQ(::dup2(saved, STDIN_FILENO), STDIN_FILENO);
  ::close(saved);
}

TEST(reader_stream, skip_on_a_pipe_reads_and_drops) {
  pipe_ends ends;
  ASSERT_TRUE(write_pieces(ends.write_end(), "0123456789abcdef", 5));
  ends.close_write();
  reader in(file(::dup(ends.read_end()), "pipe"), {.buffer_size = 3});
  EXPECT_EQ(in.skip(10), 10u);
  EXPECT_EQ(in.get(), 'a');
  EXPECT_EQ(in.skip(100), 5u);
  EXPECT_TRUE(in.eof());
}

TEST(reader_stream, readv_cut_short_at_every_length_and_interrupted_does_not_show) {
  std::string text = "first line\nsecond\n\nthe last one";
  for (std::size_t k = 1; k < text.size(); ++k) {
    SCOPED_TRACE("cut after " + std::to_string(k));
    pipe_ends ends;
    ASSERT_TRUE(write_pieces(ends.write_end(), text, text.size()));
    ends.close_write();
    fake_sys fake;
    fake.short_transfer(call::read_stream, 1, k);
    fake.fail(call::read_stream, 2, EINTR);
    reader in(file::borrow(ends.read_end(), "pipe"));
    EXPECT_EQ(all_lines(in), text + "\n");
  }
}

// The bytes the failed readv had taken are gone from the pipe: the failure
// sticks rather than let the reader go on without them.
TEST(reader_stream, eio_on_a_pipe_names_it_and_the_offset_and_sticks) {
  pipe_ends ends;
  ASSERT_TRUE(write_pieces(ends.write_end(), "0123456789", 100));
  ends.close_write();
  fake_sys fake;
  fake.short_transfer(call::read_stream, 1, 4);
  fake.fail(call::read_stream, 2, EIO);
  reader in(file::borrow(ends.read_end(), "the pipe"));
  EXPECT_EQ(in.get(), '0');  // the 4 bytes that came: a reader hands them out
  EXPECT_EQ(in.skip(3), 3u);
  auto e = thrown([&] { (void)in.get(); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_NE(std::string(e->what()).find("read 'the pipe' at offset 4"), std::string::npos)
      << e->what();
  auto again = thrown([&] { (void)in.get(); });
  ASSERT_TRUE(again);
  EXPECT_EQ(std::string(again->what()), e->what());
  EXPECT_EQ(fake.calls(call::read_stream), 2);
}

}  // namespace
