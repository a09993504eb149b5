// sluice::reader's behaviour, call by call: lines (line ends, the last line,
// max_line and skipping past a long line), bytes, records, the end of the
// file told from errors, a file that shrinks or grows under the reader,
// moves, and which calls stay in the buffer.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <sluice/sluice.hpp>
#include <string>
#include <vector>

#include "os/page_size.hpp"
#include "support/fake_sys.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::reader;

class reader_test : public dir_test {
 protected:
  std::filesystem::path with(std::string_view content) {
    auto path = dir / "in";
    write_all(path, content);
    return path;
  }

  std::vector<std::string> all_lines(reader& in) {
    std::vector<std::string> lines;
    while (auto line = in.read_line()) lines.emplace_back(*line);
    return lines;
  }
};

TEST_F(reader_test, lines_come_without_their_newline_and_the_last_one_without_one_too) {
  reader in(with("a\nbb\n\nccc"));
  EXPECT_EQ(all_lines(in), (std::vector<std::string>{"a", "bb", "", "ccc"}));
  EXPECT_EQ(in.line_count(), 4u);
  EXPECT_TRUE(in.eof());
}

TEST_F(reader_test, an_empty_file_has_no_line_and_a_newline_one_empty_line) {
  reader empty(with(""));
  EXPECT_FALSE(empty.read_line());
  reader one(with("\n"));
  EXPECT_EQ(all_lines(one), (std::vector<std::string>{""}));
}

TEST_F(reader_test, crlf_drops_the_cr_before_a_newline_only) {
  std::string content = "a\r\nb\rc\r\n\r\nend\r";
  reader crlf(with(content), {.line_ending = sluice::line_end::crlf});
  EXPECT_EQ(all_lines(crlf), (std::vector<std::string>{"a", "b\rc", "", "end\r"}));
  reader lf(dir / "in");
  EXPECT_EQ(all_lines(lf), (std::vector<std::string>{"a\r", "b\rc\r", "\r", "end\r"}));
}

TEST_F(reader_test, lines_range_walks_every_line) {
  reader in(with("one\ntwo\nthree\n"));
  std::vector<std::string> seen;
  for (std::string_view line : in.lines()) seen.emplace_back(line);
  EXPECT_EQ(seen, (std::vector<std::string>{"one", "two", "three"}));
}

TEST_F(reader_test, a_line_longer_than_the_buffer_comes_whole) {
  std::string longer = pattern(100000, 3);
  std::replace(longer.begin(), longer.end(), '\n', 'n');
  reader in(with("x\n" + longer + "\ny"), {.buffer_size = 8});
  EXPECT_EQ(all_lines(in), (std::vector<std::string>{"x", longer, "y"}));
}

TEST_F(reader_test, a_line_past_max_line_names_its_number_and_offset_and_skip_line_goes_on) {
  auto path = with("ok\n" + std::string(100, 'x') + "\nafter\n");
  reader in(path, {.buffer_size = 16, .max_line = 10});
  EXPECT_EQ(*in.read_line(), "ok");
  for (int twice = 0; twice < 2; ++twice) {  // left at the line's start: it throws again
    auto e = thrown<sluice::line_too_long>([&] { (void)in.read_line(); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->code().value(), EMSGSIZE);
    EXPECT_EQ(e->line(), 2u);
    EXPECT_EQ(e->offset(), 3u);
    EXPECT_NE(std::string(e->what()).find("sluice: read_line " + quoted(path) +
                                          " at offset 3: line 2 is longer than 10 bytes"),
              std::string::npos)
        << e->what();
    EXPECT_EQ(in.tell(), 3u);
  }
  EXPECT_EQ(in.skip_line(), 101u);
  EXPECT_EQ(*in.read_line(), "after");
  EXPECT_EQ(in.line_count(), 3u);
}

// read_line() walks an index of the newlines it found ahead; bytes taken
// by the other calls must move it on too, never hand out a line twice.
TEST_F(reader_test, lines_after_get_consume_and_read_start_where_those_stopped) {
  reader in(with("a\nbb\ncc\ndd\nee\nff\ngg\n"));
  EXPECT_EQ(*in.read_line(), "a");
  EXPECT_EQ(in.get(), 'b');
  EXPECT_EQ(*in.read_line(), "b");
  in.peek(4);
  in.consume(4);  // "cc\nd"
  EXPECT_EQ(*in.read_line(), "d");
  std::string two(2, '\0');
  in.read(std::as_writable_bytes(std::span(two)));
  EXPECT_EQ(two, "ee");
  EXPECT_EQ(*in.read_line(), "");
  EXPECT_EQ(in.skip(4), 4u);
  EXPECT_EQ(*in.read_line(), "g");
  EXPECT_EQ(in.read_line(), std::nullopt);
  EXPECT_EQ(in.line_count(), 5u);
}

// More newlines than one stretch of the index holds, in a buffer that
// moves under them.
TEST_F(reader_test, runs_of_empty_lines_longer_than_the_index_come_one_by_one) {
  std::string text(3 * 8192 + 7, '\n');
  text += "end";
  text += std::string(20000, '\n');
  for (std::size_t buffer : {std::size_t{100}, std::size_t{10000}, std::size_t{0}}) {
    SCOPED_TRACE("buffer " + std::to_string(buffer));
    reader in(with(text), {.buffer_size = buffer});
    std::size_t empty = 0;
    std::string others;
    while (auto line = in.read_line()) {
      if (line->empty()) {
        ++empty;
      } else {
        others += *line;
      }
    }
    EXPECT_EQ(empty, std::size_t{3 * 8192 + 7 + 19999});
    EXPECT_EQ(others, "end");
  }
}

TEST_F(reader_test, a_long_line_found_in_the_index_throws_and_skip_line_goes_past_it_once) {
  reader in(with("short\n" + std::string(100, 'x') + "\nnext\nlast\n"), {.max_line = 10});
  EXPECT_EQ(*in.read_line(), "short");
  EXPECT_THROW((void)in.read_line(), sluice::line_too_long);
  EXPECT_THROW((void)in.read_line(), sluice::line_too_long) << "still at its start";
  EXPECT_EQ(in.skip_line(), 101u);
  EXPECT_EQ(*in.read_line(), "next");
  EXPECT_EQ(*in.read_line(), "last");
}

TEST_F(reader_test, max_line_counts_the_line_without_its_line_end) {
  reader lf(with("0123456789\n"), {.max_line = 10});
  EXPECT_EQ(*lf.read_line(), "0123456789");
  reader crlf(with("0123456789\r\n"), {.max_line = 10, .line_ending = sluice::line_end::crlf});
  EXPECT_EQ(*crlf.read_line(), "0123456789");
  reader last(with("0123456789x"), {.max_line = 10});
  EXPECT_TRUE(thrown<sluice::line_too_long>([&] { (void)last.read_line(); }));
}

TEST_F(reader_test, bytes_get_peek_consume_read_skip_and_tell) {
  reader in(with("abcdefghij"), {.buffer_size = 4});
  EXPECT_EQ(in.get(), 'a');
  auto seen = in.peek(6);
  ASSERT_GE(seen.size(), 6u);
  EXPECT_EQ(text_of(seen.first(6)), "bcdefg");
  in.consume(2);
  EXPECT_EQ(in.tell(), 3u);
  std::string three(3, '?');
  in.read(std::as_writable_bytes(std::span(three)));
  EXPECT_EQ(three, "def");
  EXPECT_EQ(in.skip(2), 2u);
  EXPECT_EQ(in.get(), 'i');
  EXPECT_EQ(in.skip(100), 1u);
  EXPECT_EQ(in.get(), reader::end);
  EXPECT_TRUE(in.peek(5).empty());
  EXPECT_EQ(in.tell(), 10u);
}

TEST_F(reader_test, consume_past_what_is_buffered_throws_and_moves_nothing) {
  reader in(with("abc"));
  (void)in.peek(1);
  EXPECT_THROW(in.consume(4), std::out_of_range);
  EXPECT_EQ(in.tell(), 0u);
}

TEST_F(reader_test, read_past_the_end_throws_end_of_file_error_and_keeps_what_was_there) {
  auto path = with("abcd");
  reader in(path);
  std::string out(10, '?');
  auto e =
      thrown<sluice::end_of_file_error>([&] { in.read(std::as_writable_bytes(std::span(out))); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), ENODATA);
  EXPECT_EQ(e->bytes_read(), 4u);
  EXPECT_EQ(e->offset(), 4u);
  EXPECT_EQ(out.substr(0, 4), "abcd");
  EXPECT_NE(std::string(e->what()).find("read " + quoted(path) +
                                        " at offset 4: end of file after 4 of 10 bytes"),
            std::string::npos)
      << e->what();
  EXPECT_TRUE(in.eof());
}

TEST_F(reader_test, read_some_gives_what_is_buffered_and_zero_only_at_the_end) {
  reader in(with("abcdef"), {.buffer_size = 4});
  std::string out(3, '?');
  auto bytes = std::as_writable_bytes(std::span(out));
  EXPECT_EQ(in.read_some(bytes), 3u);  // a refill of 4, 3 of them
  EXPECT_EQ(out, "abc");
  EXPECT_EQ(in.read_some(bytes), 1u);  // what is left buffered
  EXPECT_EQ(in.read_some(bytes), 2u);
  EXPECT_EQ(in.read_some(bytes), 0u);
}

TEST_F(reader_test, read_some_of_a_buffer_or_more_reads_straight_into_it) {
  auto path = with("abcdef");
  fake_sys fake;
  reader in(path, {.buffer_size = 4});
  std::string out(10, '?');
  EXPECT_EQ(in.read_some(std::as_writable_bytes(std::span(out))), 6u);
  EXPECT_EQ(out.substr(0, 6), "abcdef");
  ASSERT_FALSE(fake.reads_at().empty());
  EXPECT_EQ(fake.reads_at().front().memory, out.data());
}

TEST_F(reader_test, a_large_read_goes_straight_into_the_callers_memory) {
  std::string content = pattern(1 << 20, 4);
  auto path = with(content);
  fake_sys fake;
  reader in(path, {.buffer_size = 64 * 1024});
  (void)in.get();
  std::string out(content.size() - 1, '?');
  in.read(std::as_writable_bytes(std::span(out)));
  EXPECT_EQ(out, content.substr(1));
  ASSERT_EQ(fake.reads_at().size(), 2u);  // the refill for get(), then one for the rest
  EXPECT_EQ(fake.reads_at()[1].memory, out.data() + 64 * 1024 - 1);
}

// The default buffer: 1 MiB a read (docs/performance.md#reader-buffer-size).
TEST_F(reader_test, the_default_buffer_reads_a_mebibyte_a_call) {
  std::string content = pattern(3 << 20, 8);
  auto path = with(content);
  fake_sys fake;
  reader in(path);
  std::string all;
  for (auto bytes = in.peek(); !bytes.empty(); bytes = in.peek()) {
    all += text_of(bytes);
    in.consume(bytes.size());
  }
  EXPECT_EQ(all, content);
  ASSERT_GE(fake.reads_at().size(), 3u);
  EXPECT_EQ(fake.reads_at()[0].requested, std::size_t{1} << 20);
  EXPECT_EQ(fake.reads_at()[1].requested, std::size_t{1} << 20);
}

// The kernel copies page-cache pages into the buffer: its bytes start at
// a set place in a page (docs/performance.md, "Where a buffer starts"),
// whatever the buffer's size, and after it grew for a long line.
TEST_F(reader_test, the_buffer_starts_at_its_place_in_a_page) {
  std::uintptr_t lead = 0;
#if defined(__x86_64__)
  if (__builtin_cpu_is("amd")) lead = 1040;
#endif
  auto page = static_cast<std::uintptr_t>(sluice::detail::page_size());
  auto place = [&](const void* bytes) { return reinterpret_cast<std::uintptr_t>(bytes) % page; };
  for (std::size_t size : {std::size_t{1}, std::size_t{100}, std::size_t{1} << 20}) {
    reader in(with(pattern(10000)), {.buffer_size = size});
    EXPECT_EQ(place(in.peek().data()), lead) << size;
  }
  reader grown(with(std::string(9000, 'x') + "\n"), {.buffer_size = 100});
  auto line = grown.read_line();
  ASSERT_TRUE(line);
  EXPECT_EQ(line->size(), 9000u);
  EXPECT_EQ(place(line->data()), lead);
}

TEST_F(reader_test, records_come_whole_empty_at_the_end_and_a_partial_one_throws) {
  reader in(with("0123456789"), {.buffer_size = 4});
  EXPECT_EQ(text_of(in.read_record(3)), "012");
  EXPECT_EQ(text_of(in.read_record(6)), "345678");  // larger than the buffer
  auto e = thrown<sluice::end_of_file_error>([&] { (void)in.read_record(3); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->bytes_read(), 1u);
  EXPECT_TRUE(in.read_record(3).empty());
}

TEST_F(reader_test, a_record_whole_in_the_buffer_is_a_view_of_it) {
  reader in(with(pattern(1000)));
  auto seen = in.peek(100);
  auto record = in.read_record(16);
  EXPECT_EQ(record.data(), seen.data());
}

TEST_F(reader_test, buffered_calls_and_tell_make_no_system_call) {
  auto path = with(pattern(1000) + "\nline\n");
  fake_sys fake;
  reader in(path);
  (void)in.get();
  std::size_t calls = fake.log().size();
  (void)in.peek(10);
  in.consume(5);
  (void)in.read_record(10);
  (void)in.tell();
  (void)in.read_line();
  (void)in.read_line();
  EXPECT_EQ(fake.log().size(), calls);
}

TEST_F(reader_test, a_file_that_shrinks_under_the_reader_is_an_error_naming_where) {
  auto path = with(std::string(1 << 20, 'x'));
  reader in(path, {.buffer_size = 64 * 1024});
  EXPECT_EQ(in.skip(60000), 60000u);
  std::filesystem::resize_file(path, 100 * 1024);
  auto e = thrown([&] { in.skip_line(); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), ENODATA);
  EXPECT_NE(std::string(e->what()).find("sluice: read " + quoted(path) +
                                        " at offset 102400: file shrank to 102400 bytes, "
                                        "1048576 at open"),
            std::string::npos)
      << e->what();
}

TEST_F(reader_test, skip_past_the_end_of_a_file_that_shrank_is_an_error) {
  auto path = with(std::string(100000, 'x'));
  reader in(path, {.buffer_size = 4096});
  (void)in.get();
  std::filesystem::resize_file(path, 50000);
  auto e = thrown([&] { in.skip(90000); });
  ASSERT_TRUE(e);
  EXPECT_NE(std::string(e->what()).find("file shrank to 50000 bytes"), std::string::npos)
      << e->what();
}

TEST_F(reader_test, a_file_that_grows_is_read_as_it_grows) {
  auto path = with("a\n");
  reader in(path);
  EXPECT_EQ(*in.read_line(), "a");
  EXPECT_FALSE(in.read_line());
  EXPECT_TRUE(in.eof());
  write_all(path, "a\nb\n");
  EXPECT_FALSE(in.eof());
  EXPECT_EQ(*in.read_line(), "b");
}

TEST_F(reader_test, a_moved_reader_goes_on_where_it_was) {
  reader in(with("one\ntwo\nthree\n"), {.buffer_size = 5});
  EXPECT_EQ(*in.read_line(), "one");
  reader moved(std::move(in));
  EXPECT_EQ(*moved.read_line(), "two");
  write_all(dir / "other", "other\n");
  reader assigned(dir / "other");
  assigned = std::move(moved);
  EXPECT_EQ(*assigned.read_line(), "three");
  EXPECT_EQ(assigned.line_count(), 3u);
}

TEST_F(reader_test, a_file_read_from_its_position) {
  auto path = with("skip me\nread me\n");
  auto f = sluice::file::open(path, {.mode = sluice::open_mode::read_only});
  f.seek(8);
  reader in(std::move(f));
  EXPECT_EQ(in.tell(), 8u);
  EXPECT_EQ(*in.read_line(), "read me");
}

TEST_F(reader_test, a_missing_file_throws_naming_it) {
  auto e = thrown([&] { reader in(dir / "missing"); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), ENOENT);
  EXPECT_NE(std::string(e->what()).find(quoted(dir / "missing")), std::string::npos);
}

TEST_F(reader_test, close_then_calls_are_refused) {
  reader in(with("abc"));
  in.close();
  in.close();
  EXPECT_THROW((void)in.get(), std::system_error);
}

TEST_F(reader_test, lines_found_before_close_are_not_handed_out_after_it) {
  reader in(with("one\ntwo\nthree\n"));
  EXPECT_EQ(*in.read_line(), "one");
  in.close();
  auto e = thrown([&] { (void)in.read_line(); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EBADF);
}

}  // namespace
