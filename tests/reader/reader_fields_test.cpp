// sluice::reader's fields and numbers: read_fields splits each line, and a
// bad, out-of-range or missing field names its text, the path, the line's
// number and the field's offset in the file, checked against where the text
// is in files built here (with small buffers, so that lines straddle
// refills); reader::parse<T> on fields the caller split; read_number<T>,
// which reads each field in place, the same way; CRLF lines.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <optional>
#include <sluice/sluice.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::parse_error;
using sluice::reader;

class reader_fields : public dir_test {
 protected:
  std::filesystem::path with(std::string_view content) {
    auto path = dir / "in.csv";
    write_all(path, content);
    return path;
  }
};

// "i,i/2,-i\n" for i in [0, rows), and row `bad`'s middle field replaced by `field`.
std::string csv(int rows, int bad, std::string_view field) {
  std::string text;
  for (int i = 0; i < rows; ++i) {
    text += std::to_string(i) + ',';
    text += i == bad ? std::string(field) : std::to_string(i / 2.0);
    text += ',' + std::to_string(-i) + '\n';
  }
  return text;
}

// The offset of the n-th line's first byte (from 1) in `text`.
std::uint64_t line_start(std::string_view text, int n) {
  std::size_t at = 0;
  for (int i = 1; i < n; ++i) at = text.find('\n', at) + 1;
  return at;
}

TEST_F(reader_fields, rows_split_and_their_numbers_read_across_refills) {
  std::string text = csv(500, -1, "");
  for (std::size_t buffer : {std::size_t{16}, std::size_t{100}, std::size_t{0}}) {
    reader in(with(text), {.buffer_size = buffer});
    int i = 0;
    while (auto row = in.read_fields(',')) {
      EXPECT_EQ(row->next<std::int64_t>(), i);
      EXPECT_EQ(row->next<double>(), i / 2.0);
      EXPECT_EQ(row->next<std::int32_t>(), -i);
      EXPECT_TRUE(row->done());
      ++i;
    }
    EXPECT_EQ(i, 500) << "buffer " << buffer;
    EXPECT_EQ(in.line_count(), 500u);
  }
}

TEST_F(reader_fields, a_bad_field_names_its_text_path_line_and_offset) {
  std::string text = csv(300, 211, "0.5x");
  auto path = with(text);
  reader in(path, {.buffer_size = 64});
  std::optional<parse_error> error;
  while (auto row = in.read_fields(',')) {
    row->next<std::int64_t>();
    error = thrown<parse_error>([&] { row->next<double>(); });
    if (error) break;
  }
  ASSERT_TRUE(error);
  std::uint64_t offset = text.find("0.5x");
  EXPECT_EQ(offset, line_start(text, 212) + 4) << "the file built as intended";
  EXPECT_EQ(error->code(), std::error_code(EINVAL, std::generic_category()));
  EXPECT_EQ(error->line(), 212u);
  EXPECT_EQ(error->offset(), offset);
  EXPECT_EQ(error->path(), path.string());
  EXPECT_EQ(std::string(error->what()), "sluice: parse double \"0.5x\" in " + quoted(path) +
                                            " at line 212, offset " + std::to_string(offset) +
                                            ": expected a decimal number, inf or nan");
  auto next = in.read_fields(',');
  ASSERT_TRUE(next) << "the reader goes on after a refused field";
  EXPECT_EQ(next->next<int>(), 212);
}

TEST_F(reader_fields, an_out_of_range_field_names_where_it_is) {
  std::string text = "1,2,3\n4,5,99999999999\n";
  auto path = with(text);
  reader in(path, {.buffer_size = 8});
  in.read_fields(',');
  auto row = in.read_fields(',');
  ASSERT_TRUE(row);
  EXPECT_EQ(row->next<std::int32_t>(), 4);
  EXPECT_EQ(row->next<std::int32_t>(), 5);
  auto error = thrown<parse_error>([&] { row->next<std::int32_t>(); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code(), std::error_code(ERANGE, std::generic_category()));
  EXPECT_EQ(std::string(error->what()), "sluice: parse int32 \"99999999999\" in " + quoted(path) +
                                            " at line 2, offset 10: " + "out of range");
  EXPECT_EQ(text.find("99999999999"), 10u);
}

TEST_F(reader_fields, a_missing_field_is_located_at_the_end_of_its_line) {
  auto path = with("1,2,3\n4,5\n");
  reader in(path);
  in.read_line();
  auto row = in.read_fields(',');
  ASSERT_TRUE(row);
  row->next<int>();
  row->next<int>();
  auto error = thrown<parse_error>([&] { row->next<int>(); });
  ASSERT_TRUE(error);
  EXPECT_EQ(std::string(error->what()), "sluice: parse int32 \"\" in " + quoted(path) +
                                            " at line 2, offset 9: missing: the line has 2 fields");
}

TEST_F(reader_fields, an_empty_field_names_its_own_offset) {
  std::string text = "1,,3\n";
  reader in(with(text));
  auto row = in.read_fields(',');
  ASSERT_TRUE(row);
  row->next<int>();
  auto error = thrown<parse_error>([&] { row->next<int>(); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->quoted_text(), "\"\"");
  EXPECT_EQ(error->offset(), 2u);
  EXPECT_EQ(row->next<int>(), 3);
}

TEST_F(reader_fields, crlf_lines_split_clean_with_line_end_crlf) {
  std::string text = "1,2\r\n3,4\r\n";
  reader crlf(with(text), {.line_ending = sluice::line_end::crlf});
  std::vector<int> numbers;
  while (auto row = crlf.read_fields(','))
    for (int k = 0; k < 2; ++k) numbers.push_back(row->next<int>());
  EXPECT_EQ(numbers, (std::vector<int>{1, 2, 3, 4}));

  reader lf(dir / "in.csv");
  lf.read_fields(',');
  auto row = lf.read_fields(',');
  ASSERT_TRUE(row);
  EXPECT_EQ(row->next<int>(), 3);
  auto error = thrown<parse_error>([&] { row->next<int>(); });
  ASSERT_TRUE(error) << "without line_end::crlf the '\\r' is in the last field";
  EXPECT_EQ(error->quoted_text(), "\"4\\x0d\"");
  EXPECT_EQ(error->line(), 2u);
  EXPECT_EQ(error->offset(), 7u);
}

TEST_F(reader_fields, every_line_has_fields_and_the_end_of_the_file_none) {
  reader in(with("\n\t\na\tb"));
  std::vector<std::vector<std::string>> rows;
  while (auto row = in.read_fields('\t')) {
    rows.emplace_back();
    for (std::string_view field : *row) rows.back().emplace_back(field);
  }
  EXPECT_EQ(rows, (std::vector<std::vector<std::string>>{{""}, {"", ""}, {"a", "b"}}));
  EXPECT_FALSE(in.read_fields('\t'));
}

TEST_F(reader_fields, parse_locates_a_field_the_caller_split_from_the_last_line) {
  std::string text = "alpha beta\n10 0x1f -3\n";
  auto path = with(text);
  reader in(path, {.buffer_size = 4});
  in.read_line();
  auto line = in.read_line();
  ASSERT_TRUE(line);
  std::string_view first = line->substr(0, 2);
  std::string_view second = line->substr(3, 4);
  std::string_view third = line->substr(8);
  EXPECT_EQ(in.parse<int>(first), 10);
  EXPECT_EQ(in.parse<std::int8_t>(third), -3);
  EXPECT_EQ(in.parse<unsigned>(second.substr(2), 16), 31u);
  auto error = thrown<parse_error>([&] { in.parse<unsigned>(second); });
  ASSERT_TRUE(error);
  EXPECT_EQ(std::string(error->what()), "sluice: parse uint32 \"0x1f\" in " + quoted(path) +
                                            " at line 2, offset 14: expected a decimal integer");
  EXPECT_EQ(text.find("0x1f"), 14u);
  auto range = thrown<parse_error>([&] { in.parse<std::uint8_t>(third); });
  ASSERT_TRUE(range);
  EXPECT_EQ(range->code(), std::error_code(ERANGE, std::generic_category()));
  EXPECT_EQ(range->offset(), 19u);
}

TEST_F(reader_fields, parse_of_a_text_outside_the_buffer_is_not_located) {
  reader in(with("1\n"));
  in.read_line();
  std::string elsewhere = "1x";
  auto error = thrown<parse_error>([&] { in.parse<int>(elsewhere); });
  ASSERT_TRUE(error);
  EXPECT_EQ(std::string(error->what()), "sluice: parse int32 \"1x\": expected a decimal integer");
  EXPECT_EQ(error->line(), 0u);
}

// --- read_number -------------------------------------------------------------

TEST_F(reader_fields, read_number_reads_rows_in_place_across_refills) {
  std::string text = csv(500, -1, "");
  for (std::size_t buffer : {std::size_t{1}, std::size_t{16}, std::size_t{100}, std::size_t{0}}) {
    reader in(with(text), {.buffer_size = buffer});
    int i = 0;
    while (!in.eof()) {
      ASSERT_EQ(in.read_number<std::int64_t>(','), i);
      ASSERT_EQ(in.read_number<double>(','), i / 2.0);
      ASSERT_EQ(in.read_number<std::int32_t>('\n'), -i);
      ++i;
      ASSERT_EQ(in.line_count(), static_cast<std::uint64_t>(i));
    }
    EXPECT_EQ(i, 500) << "buffer " << buffer;
    EXPECT_EQ(in.tell(), text.size());
  }
}

TEST_F(reader_fields, read_number_takes_the_end_of_the_file_for_a_line_end) {
  reader in(with("1,2\n3,4"));
  std::vector<int> numbers;
  while (!in.eof()) {
    numbers.push_back(in.read_number<int>(','));
    numbers.push_back(in.read_number<int>('\n'));
  }
  EXPECT_EQ(numbers, (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(in.line_count(), 2u);
}

TEST_F(reader_fields, read_number_refuses_a_bad_field_naming_where_it_is_and_consumes_nothing) {
  std::string text = csv(300, 123, "1.5e");
  auto path = with(text);
  reader in(path, {.buffer_size = 64});
  std::optional<parse_error> error;
  for (int i = 0; i < 300 && !error; ++i) {
    in.read_number<std::int64_t>(',');
    error = thrown<parse_error>([&] { in.read_number<double>(','); });
    if (!error) in.read_number<std::int32_t>('\n');
  }
  ASSERT_TRUE(error);
  std::uint64_t offset = text.find("1.5e");
  EXPECT_EQ(std::string(error->what()), "sluice: parse double \"1.5e\" in " + quoted(path) +
                                            " at line 124, offset " + std::to_string(offset) +
                                            ": expected a decimal number, inf or nan");
  EXPECT_EQ(in.tell(), offset) << "nothing consumed";
  EXPECT_EQ(in.skip_line(), 4u + 1 + 4 + 1);
  EXPECT_EQ(in.read_number<int>(','), 124) << "the next line reads on";
}

TEST_F(reader_fields, read_number_refuses_a_field_out_of_range_or_empty) {
  std::string text = "300,\n,7\n";
  auto path = with(text);
  reader in(path);
  auto range = thrown<parse_error>([&] { in.read_number<std::uint8_t>(','); });
  ASSERT_TRUE(range);
  EXPECT_EQ(range->code(), std::error_code(ERANGE, std::generic_category()));
  EXPECT_EQ(range->offset(), 0u);
  EXPECT_EQ(range->line(), 1u);
  EXPECT_EQ(in.read_number<int>(','), 300);
  auto empty = thrown<parse_error>([&] { in.read_number<int>('\n'); });
  ASSERT_TRUE(empty);
  EXPECT_EQ(std::string(empty->what()), "sluice: parse int32 \"\" in " + quoted(path) +
                                            " at line 1, offset 4: expected a decimal integer");
  in.skip_line();
  auto leading = thrown<parse_error>([&] { in.read_number<int>(','); });
  ASSERT_TRUE(leading);
  EXPECT_EQ(leading->line(), 2u);
  EXPECT_EQ(leading->offset(), 5u);
}

TEST_F(reader_fields, read_number_refuses_a_line_that_ends_before_the_terminator) {
  std::string text = "1,2\n3,4,5\n";
  auto path = with(text);
  reader in(path);
  EXPECT_EQ(in.read_number<int>(','), 1);
  auto early = thrown<parse_error>([&] { in.read_number<int>(','); });
  ASSERT_TRUE(early);
  EXPECT_EQ(early->code(), std::error_code(EINVAL, std::generic_category()));
  EXPECT_EQ(std::string(early->what()), "sluice: parse int32 \"2\" in " + quoted(path) +
                                            " at line 1, offset 2: the line ends before \",\"");
  EXPECT_EQ(in.read_number<int>('\n'), 2) << "read with the right terminator, it is fine";
  EXPECT_EQ(in.read_number<int>(','), 3);
  EXPECT_EQ(in.read_number<int>(','), 4);
  EXPECT_EQ(in.read_number<int>('\n'), 5);
  auto at_end = thrown<parse_error>([&] { in.read_number<int>('\n'); });
  ASSERT_TRUE(at_end) << "nothing left: an empty field";
  EXPECT_EQ(at_end->offset(), text.size());
}

TEST_F(reader_fields, read_number_with_crlf_lines) {
  std::string text = "1,2\r\n3,4\r\n";
  reader crlf(with(text), {.buffer_size = 3, .line_ending = sluice::line_end::crlf});
  std::vector<int> numbers;
  while (!crlf.eof()) {
    numbers.push_back(crlf.read_number<int>(','));
    numbers.push_back(crlf.read_number<int>('\n'));
  }
  EXPECT_EQ(numbers, (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(crlf.line_count(), 2u);
  reader lf(dir / "in.csv");
  lf.read_number<int>(',');
  auto error = thrown<parse_error>([&] { lf.read_number<int>('\n'); });
  ASSERT_TRUE(error) << "without line_end::crlf the '\\r' is in the field";
  EXPECT_EQ(error->quoted_text(), "\"2\\x0d\"");
  EXPECT_EQ(error->offset(), 2u);
}

// A terminator that can be part of a number ends the field where it first
// appears, as fields splits: "1.5.25" at '.' is 1, 5 and 25.
TEST_F(reader_fields, read_number_with_a_terminator_that_can_be_in_a_number) {
  auto path = with("1.5.25\n7e3e4\n");
  for (std::size_t buffer : {std::size_t{2}, std::size_t{0}}) {
    SCOPED_TRACE(buffer);
    reader in(path, {.buffer_size = buffer});
    EXPECT_EQ(in.read_number<double>('.'), 1.0);
    EXPECT_EQ(in.read_number<int>('.'), 5);
    EXPECT_EQ(in.read_number<int>('\n'), 25);
    EXPECT_EQ(in.read_number<double>('e'), 7.0);
    EXPECT_EQ(in.read_number<unsigned>('e', 16), 3u);
    EXPECT_EQ(in.read_number<int>('\n'), 4);
  }
}

TEST_F(reader_fields, read_number_refuses_a_field_longer_than_max_line) {
  std::string zeros(40, '0');
  std::string text = zeros + "1," + "7\n";
  for (std::size_t buffer : {std::size_t{8}, std::size_t{4096}}) {
    reader in(with(text), {.buffer_size = buffer, .max_line = 32});
    auto error = thrown<sluice::line_too_long>([&] { in.read_number<int>(','); });
    ASSERT_TRUE(error) << "buffer " << buffer << ": 41 bytes are longer than max_line 32";
    EXPECT_EQ(error->line(), 1u);
    EXPECT_EQ(error->offset(), 0u);
    EXPECT_NE(std::string(error->what()).find("read_number '"), std::string::npos) << error->what();
  }
  reader fits(dir / "in.csv", {.max_line = 41});
  EXPECT_EQ(fits.read_number<int>(','), 1);
}

// read_number moves past lines whose newlines read_line may have indexed
// already: lines, fields and numbers taken in turns stay in step.
TEST_F(reader_fields, read_number_read_line_and_read_fields_in_turns) {
  std::string text;
  for (int i = 0; i < 3000; ++i) text += std::to_string(i) + ',' + std::to_string(-i) + '\n';
  reader in(with(text), {.buffer_size = 4096});
  for (int i = 0; i < 3000; ++i) {
    SCOPED_TRACE(i);
    switch (i % 3) {
      case 0: {
        auto line = in.read_line();
        ASSERT_TRUE(line);
        ASSERT_EQ(*line, std::to_string(i) + ',' + std::to_string(-i));
        break;
      }
      case 1: {
        auto row = in.read_fields(',');
        ASSERT_TRUE(row);
        ASSERT_EQ(row->next<int>(), i);
        ASSERT_EQ(row->next<int>(), -i);
        break;
      }
      default: ASSERT_EQ(in.read_number<int>(','), i); ASSERT_EQ(in.read_number<int>('\n'), -i);
    }
    ASSERT_EQ(in.line_count(), static_cast<std::uint64_t>(i + 1));
  }
  EXPECT_FALSE(in.read_line());
}

TEST_F(reader_fields, read_number_base_outside_2_to_36_is_an_invalid_argument) {
  reader in(with("10\n"));
  EXPECT_THROW(in.read_number<int>('\n', 37), std::invalid_argument);
  EXPECT_EQ(in.read_number<int>('\n', 2), 2);
}

}  // namespace
