// sluice::reader::read_into: which pieces are copied out of the buffer and
// which runs go to one preadv (the fake seam's record of each read), the
// buffered bytes used first, the end of the file in the middle of the
// pieces, and through the seam at the preadv: EINTR, short reads of every
// length, EIO naming the offset, a file cut under it; more than IOV_MAX
// pieces; a pipe, a borrowed descriptor and caching_mode::direct, where
// every piece goes through the buffer.
#include <gtest/gtest.h>

#ifndef _WIN32
#include <fcntl.h>
#include <unistd.h>
#endif

#include <cerrno>
#include <sluice/sluice.hpp>
#include <string>
#include <vector>

#include "support/fake_sys.hpp"
#include "support/filesystem.hpp"
#include "support/platform.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::reader;

constexpr std::size_t buffer = 4096;
// Pieces of at least 2 KiB are read straight once the buffer is empty
// (reader.hpp, read_into).

class reader_scatter : public dir_test {
 protected:
  void SetUp() override { write_all(path, content); }
  std::string content = pattern(64 * 1024, 5);
  std::filesystem::path path = dir / "in";
};

TEST_F(reader_scatter, a_run_of_large_pieces_is_one_preadv_and_small_ones_one_refill) {
  fake_sys fake;
  reader in(path, {.buffer_size = buffer});
  scatter large(std::vector<std::size_t>(10, 3000));
  in.read_into(large.buffers());
  EXPECT_EQ(large.joined(), content.substr(0, 30000));
  EXPECT_EQ(in.tell(), 30000u);
  ASSERT_EQ(fake.reads_at().size(), 1u);
  EXPECT_EQ(fake.reads_at()[0].iov_count, 10);
  EXPECT_EQ(fake.reads_at()[0].requested, 30000u);
  EXPECT_EQ(fake.reads_at()[0].offset, 0);

  scatter small(std::vector<std::size_t>(10, 100));
  in.read_into(small.buffers());
  EXPECT_EQ(small.joined(), content.substr(30000, 1000));
  ASSERT_EQ(fake.reads_at().size(), 2u);  // a refill of the buffer
  EXPECT_EQ(fake.reads_at()[1].requested, buffer);
  EXPECT_EQ(in.get(), static_cast<unsigned char>(content[31000]));  // from the buffer
  EXPECT_EQ(fake.reads_at().size(), 2u);
}

TEST_F(reader_scatter, buffered_bytes_go_first_and_the_rest_of_the_run_is_read_straight) {
  reader in(path, {.buffer_size = buffer});
  ASSERT_EQ(in.peek(1).size(), buffer);
  in.consume(3000);  // 1096 of the buffer left
  fake_sys fake;
  scatter into({5000, 3000, 10});
  in.read_into(into.buffers());
  EXPECT_EQ(into.joined(), content.substr(3000, 8010));
  EXPECT_EQ(in.tell(), 11010u);
  // The first piece's last 3904 bytes and the second piece in one preadv at
  // the buffer's end; the small last piece from a refill after them.
  ASSERT_EQ(fake.reads_at().size(), 2u);
  EXPECT_EQ(fake.reads_at()[0].offset, 4096);
  EXPECT_EQ(fake.reads_at()[0].iov_count, 2);
  EXPECT_EQ(fake.reads_at()[0].requested, 3904u + 3000u);
  EXPECT_EQ(fake.reads_at()[1].offset, 11000);
}

TEST_F(reader_scatter, a_short_remainder_of_a_large_piece_is_copied_from_a_refill) {
  reader in(path, {.buffer_size = buffer});
  ASSERT_EQ(in.peek(1).size(), buffer);
  in.consume(buffer - 100);  // 100 of the buffer left
  fake_sys fake;
  scatter into({2100, 50});
  in.read_into(into.buffers());
  EXPECT_EQ(into.joined(), content.substr(3996, 2150));
  ASSERT_EQ(fake.reads_at().size(), 1u);  // 2000 left of the first piece: below 2 KiB
  EXPECT_EQ(fake.reads_at()[0].requested, buffer);
}

TEST_F(reader_scatter, the_end_of_the_file_says_how_many_bytes_landed) {
  for (std::size_t piece : {std::size_t{100}, std::size_t{3000}}) {
    SCOPED_TRACE("pieces of " + std::to_string(piece));
    reader in(path, {.buffer_size = buffer});
    EXPECT_EQ(in.skip(content.size() - 5000), content.size() - 5000);
    scatter into(std::vector<std::size_t>(6000 / piece, piece));
    auto e = thrown<sluice::end_of_file_error>([&] { in.read_into(into.buffers()); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->bytes_read(), 5000u);
    EXPECT_EQ(e->offset(), content.size());
    EXPECT_EQ(e->code().value(), ENODATA);
    EXPECT_NE(std::string(e->what()).find("read_into " + quoted(path) +
                                          " at offset 65536: end of "
                                          "file after 5000 of 6000 bytes"),
              std::string::npos)
        << e->what();
    EXPECT_EQ(into.joined(), content.substr(content.size() - 5000) + std::string(1000, '.'));
    EXPECT_EQ(in.tell(), content.size());
    EXPECT_TRUE(in.eof());
  }
}

TEST_F(reader_scatter, short_and_interrupted_preadvs_do_not_show) {
  for (std::size_t bytes = 1; bytes < 6000; bytes += bytes < 64 ? 1 : 331) {
    SCOPED_TRACE("the preadv short by all but " + std::to_string(bytes) + " bytes");
    reader in(path, {.buffer_size = buffer});
    fake_sys fake;
    fake.short_transfer(call::read_at, 1, bytes);
    fake.fail(call::read_at, 2, EINTR);
    scatter into({2500, 1, 2100, 3300});  // the first read straight, the others copied
    in.read_into(into.buffers());
    EXPECT_EQ(into.joined(), content.substr(0, 7901));
    EXPECT_EQ(in.tell(), 7901u);
  }
}

TEST_F(reader_scatter, eio_at_the_preadv_names_the_offset_and_the_next_call_reads_again) {
  reader in(path, {.buffer_size = buffer});
  ASSERT_EQ(in.peek(1).size(), buffer);
  in.consume(buffer - 96);  // 96 of the buffer left
  fake_sys fake;
  fake.fail(call::read_at, 1, EIO);
  scatter into({3000, 3000});
  auto e = thrown([&] { in.read_into(into.buffers()); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_EQ(fake.reads_at().at(0).iov_count, 2);  // the preadv of the run
  EXPECT_NE(std::string(e->what()).find("sluice: read " + quoted(path) + " at offset 4096"),
            std::string::npos)
      << e->what();
  EXPECT_EQ(in.tell(), 4096u);  // the 96 buffered bytes landed
  EXPECT_EQ(into.joined().substr(0, 96), content.substr(4000, 96));
  scatter again({2904, 3000});
  in.read_into(again.buffers());
  EXPECT_EQ(again.joined(), content.substr(4096, 5904));
}

TEST_F(reader_scatter, a_file_cut_under_the_preadv_is_file_shrank) {
  reader in(path, {.buffer_size = buffer});
  std::filesystem::resize_file(path, 5000);
  scatter into({4000, 4000});
  auto e = thrown([&] { in.read_into(into.buffers()); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), ENODATA);
  EXPECT_NE(std::string(e->what()).find("file shrank to 5000 bytes, 65536 at open"),
            std::string::npos)
      << e->what();
}

TEST_F(reader_scatter, more_than_iov_max_pieces_take_one_preadv_per_iov_max) {
  content = pattern(1500 * 2048 + 100, 6);
  write_all(path, content);
  fake_sys fake;
  reader in(path, {.buffer_size = buffer});
  scatter into(std::vector<std::size_t>(1500, 2048));  // IOV_MAX is 1024 on Linux
  in.read_into(into.buffers());
  EXPECT_EQ(into.joined(), content.substr(0, 1500 * 2048));
  ASSERT_EQ(fake.reads_at().size(), 2u);
  EXPECT_EQ(fake.reads_at()[0].iov_count, 1024);
  EXPECT_EQ(fake.reads_at()[1].iov_count, 1500 - 1024);
}

TEST_F(reader_scatter, empty_pieces_take_nothing_and_do_not_cut_a_run) {
  fake_sys fake;
  reader in(path, {.buffer_size = buffer});
  in.read_into({});
  scatter into({0, 0, 3000, 0, 3000, 0});
  in.read_into(into.buffers());
  EXPECT_EQ(into.joined(), content.substr(0, 6000));
  ASSERT_EQ(fake.reads_at().size(), 1u);
  EXPECT_EQ(fake.reads_at()[0].requested, 6000u);
}

#ifndef _WIN32
// A borrowed descriptor reads at its own offset: every piece through the
// buffer, one read per buffer, none straight into the pieces.
TEST_F(reader_scatter, a_borrowed_descriptor_copies_every_piece_through_the_buffer) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  fake_sys fake;
  {
    reader in(sluice::file::borrow(fd, "borrowed"), {.buffer_size = buffer});
    scatter into({3000, 3000, 3000});
    in.read_into(into.buffers());
    EXPECT_EQ(into.joined(), content.substr(0, 9000));
  }
  ::close(fd);
  EXPECT_EQ(fake.calls(call::read_at), 0);
  ASSERT_EQ(fake.calls(call::read_stream), 3);
}

TEST_F(reader_scatter, a_pipe_fed_in_odd_pieces_is_read_whole) {
  std::string text = pattern(3'000'000, 7);
  pipe_ends ends;
  int write_end = ends.take_write_end();
  sender feeding([write_end] { return write_end; }, text, 4093);
  reader in(sluice::file(::dup(ends.read_end()), "pipe"), {.buffer_size = 64 * 1024});
  std::vector<std::size_t> sizes;
  for (std::size_t total = 0, i = 0; total < text.size(); total += sizes.back(), ++i)
    sizes.push_back(std::min<std::size_t>(text.size() - total, 1 + i * 37 % 3000));
  scatter into(sizes);
  in.read_into(into.buffers());
  EXPECT_TRUE(into.joined() == text);
  EXPECT_TRUE(in.eof());
}
#else
SLUICE_SKIPPED_ON_WINDOWS_F(reader_scatter,
                            a_borrowed_descriptor_copies_every_piece_through_the_buffer,
                            "borrows a descriptor from open(2)")
SLUICE_SKIPPED_ON_WINDOWS_F(reader_scatter, a_pipe_fed_in_odd_pieces_is_read_whole,
                            "feeds a pipe(2) from a thread (pipe_ends, sender)")
#endif

TEST_F(reader_scatter, direct_copies_every_piece_through_its_aligned_buffer) {
  std::size_t block = direct_block(dir / "probe");
  if (block == 0)
    GTEST_SKIP() << "no O_DIRECT under $TMPDIR (the filesystem or the backend refuses it)";
  fake_sys fake;
  reader in(path, {.buffer_size = 100000, .caching = sluice::caching_mode::direct});
  EXPECT_EQ(in.skip(777), 777u);
  scatter into({3000, 20000, 5, 30000});
  in.read_into(into.buffers());
  EXPECT_EQ(into.joined(), content.substr(777, 53005));
  for (const write_record& read : fake.reads_at()) {
    EXPECT_EQ(static_cast<std::uint64_t>(read.offset) % block, 0u) << read.offset;
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(read.memory) % block, 0u);
  }
}

}  // namespace
