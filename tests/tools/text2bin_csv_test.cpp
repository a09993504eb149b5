// sluice-text2bin's CSV parser (tools/text2bin/csv_parser.*, csv_scan.*):
// RFC 4180 quoting, line ends, header rows in any order, trimming, where
// rows may be cut, and every error at its exact byte.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "common/schema.hpp"
#include "text2bin/convert.hpp"
#include "text2bin/csv_parser.hpp"
#include "text2bin/csv_scan.hpp"
#include "text2bin/record_encoder.hpp"
#include "text2bin/text_error.hpp"

namespace {

using text2bin::csv_header;

// A parser for `schema` with `options`' CSV settings.
struct csv {
  text2bin::job options;
  text2bin::record_encoder encoder;
  std::unique_ptr<text2bin::format_parser> parser;

  explicit csv(const char* schema, csv_header header = csv_header::detect, bool trim = false)
      : options(make_options(header, trim)),
        encoder(sluice_tools::parse_schema(schema), false),
        parser(text2bin::make_csv_parser(options, encoder)) {}

  static text2bin::job make_options(csv_header header, bool trim) {
    text2bin::job work;
    work.format = sluice_tools::format::csv;
    work.header = header;
    work.trim_spaces = trim;
    return work;
  }

  // The records of the whole `text`, read as the driver reads it: the head,
  // then the rest as one last piece.
  std::vector<unsigned char> records(std::string_view text) {
    std::optional<std::size_t> head = parser->read_head(text, true);
    EXPECT_TRUE(head.has_value());
    std::vector<unsigned char> out;
    std::string_view rest = text.substr(*head);
    EXPECT_EQ(parser->whole_records(rest, true), rest.size());
    parser->parse(rest, true, out);
    return out;
  }

  // "<at>: <what>" of the text_error records(text) throws, the position in
  // the whole text, or "no error".
  std::string error(std::string_view text) {
    std::size_t head = 0;
    try {
      head = *parser->read_head(text, true);
      std::vector<unsigned char> out;
      parser->parse(text.substr(head), true, out);
    } catch (const text2bin::text_error& e) {
      return std::to_string(head + e.at()) + ": " + e.what();
    }
    return "no error";
  }
};

// Records of id:i32,x:f64, packed, little-endian (the host's order here).
std::vector<unsigned char> id_x(std::initializer_list<std::pair<std::int32_t, double>> values) {
  std::vector<unsigned char> bytes;
  for (auto [id, x] : values) {
    unsigned char record[12];
    std::memcpy(record, &id, 4);
    std::memcpy(record + 4, &x, 8);
    bytes.insert(bytes.end(), record, record + 12);
  }
  return bytes;
}

TEST(text2bin_csv, reads_rows_with_lf_crlf_and_no_final_line_end) {
  auto want = id_x({{1, 0.5}, {-2, 1000}});
  EXPECT_EQ(csv("id:i32,x:f64").records("1,0.5\n-2,1e3\n"), want);
  EXPECT_EQ(csv("id:i32,x:f64").records("1,0.5\r\n-2,1e3\r\n"), want);
  EXPECT_EQ(csv("id:i32,x:f64").records("1,0.5\n-2,1e3"), want);
  EXPECT_EQ(csv("id:i32,x:f64").records("1,0.5\r\n-2,1e3"), want);
  EXPECT_EQ(csv("id:i32,x:f64").records(""), id_x({}));
}

TEST(text2bin_csv, quoted_cells_are_their_text_between_the_quotes) {
  auto want = id_x({{1, 0.5}, {-2, 1000}});
  EXPECT_EQ(csv("id:i32,x:f64").records("\"1\",\"0.5\"\r\n\"-2\",1e3\r\n"), want);
  EXPECT_EQ(csv("id:i32,x:f64").records("\"id\",\"x\"\n1,\"0.5\"\n-2,\"1e3\""), want);
}

TEST(text2bin_csv, empty_lines_are_skipped) {
  EXPECT_EQ(csv("id:i32,x:f64").records("\n1,0.5\n\n\r\n-2,1e3\n\n"), id_x({{1, 0.5}, {-2, 1000}}));
  EXPECT_EQ(csv("id:i32,x:f64").records("\n\n"), id_x({}));
}

TEST(text2bin_csv, what_from_chars_refuses_but_parse_takes_goes_the_slow_way) {
  // A '+', and "-0" for an unsigned type: sluice::parse takes both.
  auto records = csv("a:i32,b:u32", csv_header::absent).records("+7,-0\n1,+2");
  std::vector<unsigned char> want(16, 0);
  want[0] = 7;
  want[8] = 1;
  want[12] = 2;
  EXPECT_EQ(records, want);
}

TEST(text2bin_csv, a_header_maps_columns_to_fields_by_name) {
  auto want = id_x({{1, 0.5}, {-2, 1000}});
  EXPECT_EQ(csv("id:i32,x:f64").records("id,x\n1,0.5\n-2,1e3\n"), want);
  EXPECT_EQ(csv("id:i32,x:f64").records("x,id\r\n0.5,1\r\n1e3,-2\r\n"), want);
  EXPECT_EQ(csv("id:i32,x:f64", csv_header::present).records("\"x\",id\n0.5,1\n1e3,-2"), want);
  // Only a cell that names a field and is not a number makes a header.
  EXPECT_EQ(csv("inf:f64,nan:f64").records("inf,nan\n").size(), 16u);
  EXPECT_EQ(csv("inf:f64,b:f64").records("b,inf\n1,2\n").size(), 16u);
}

TEST(text2bin_csv, without_a_header_the_first_row_is_a_record) {
  EXPECT_EQ(csv("id:i32,x:f64", csv_header::absent).records("1,0.5\n-2,1e3\n"),
            id_x({{1, 0.5}, {-2, 1000}}));
  EXPECT_EQ(csv("id:i32,x:f64", csv_header::detect).records("1,0.5\n-2,1e3\n"),
            id_x({{1, 0.5}, {-2, 1000}}));
  EXPECT_EQ(csv("id:i32,x:f64", csv_header::absent).error("id,x\n1,2\n"),
            "0: expected a decimal integer for field 'id' (i32), found \"id\"");
}

TEST(text2bin_csv, trim_spaces_drops_spaces_and_tabs_around_cells) {
  auto want = id_x({{1, 0.5}, {-2, 1000}});
  EXPECT_EQ(csv("id:i32,x:f64", csv_header::detect, true)
                .records(" x ,\tid\n 0.5 ,\t\"1\" \n\"1e3\"\t, -2\r\n"),
            want);
  EXPECT_EQ(csv("id:i32,x:f64").error(" 1,0.5\n"),
            "0: expected a decimal integer for field 'id' (i32), found \" 1\"");
  EXPECT_EQ(csv("id:i32,x:f64").error("1, \"0.5\"\n"),
            "3: expected a cell quoted whole or not at all, found '\"' inside an unquoted cell");
  EXPECT_EQ(csv("id:i32,x:f64").error("\"1\" ,0.5\n"),
            "3: expected ',' after field 'id' (i32), found ' '");
}

TEST(text2bin_csv, every_error_is_at_its_byte) {
  csv p("id:i32,x:f64,flags:u16");
  EXPECT_EQ(p.error("1,2,3\n4,5\n"),
            "9: expected 3 fields, found 2: field 'flags' (u16) is missing");
  EXPECT_EQ(p.error("1,2,3\n4\r\n"), "7: expected 3 fields, found 1: field 'x' (f64) is missing");
  EXPECT_EQ(p.error("1,2,3\n4,5"), "9: expected 3 fields, found 2: field 'flags' (u16) is missing");
  EXPECT_EQ(p.error("1,2,3,4\n"),
            "5: expected 3 fields, found more: ',' after field 'flags' (u16), the last");
  EXPECT_EQ(p.error("1,\"2,3\n"),
            "2: unterminated quote: the cell that starts here has no closing '\"'");
  EXPECT_EQ(p.error("\"1\"x,2,3\n"), "3: expected ',' after field 'id' (i32), found 'x'");
  EXPECT_EQ(p.error("1,2,\"3\"\"\n"),
            "4: unterminated quote: the cell that starts here has no closing '\"'");
  EXPECT_EQ(p.error("1,2,\"3\"x\n"), "7: expected a line end after field 'flags' (u16), found 'x'");
  EXPECT_EQ(p.error("1,2,3\r4\n"),
            "5: expected a line end after field 'flags' (u16), found '\\x0d'");
  EXPECT_EQ(p.error("1,2x,3\n"), "2: expected a number for field 'x' (f64), found \"2x\"");
  EXPECT_EQ(p.error("1,,3\n"), "2: expected a number for field 'x' (f64), found nothing");
  EXPECT_EQ(p.error("1,2,70000\n"), "4: field 'flags' (u16) out of range: \"70000\"");
  EXPECT_EQ(p.error("1,\"2,5\",3\n"), "3: expected a number for field 'x' (f64), found \"2,5\"");
  EXPECT_EQ(p.error("\"12\"\"\",2,3\n"),
            "1: expected a decimal integer for field 'id' (i32), found \"12\\\"\\\"\"");
  EXPECT_EQ(p.error("1,2,3\n4,5,6\"\n"),
            "11: expected a cell quoted whole or not at all, found '\"' inside an unquoted cell");
}

TEST(text2bin_csv, header_errors_name_the_column) {
  csv p("id:i32,x:f64");
  EXPECT_EQ(p.error("id,y\n"), "3: header column 2 'y' names no field of the schema (id, x)");
  EXPECT_EQ(p.error("x,id,x\n"), "5: header column 3 'x' names a field an earlier column names");
  EXPECT_EQ(p.error("x\r\n1\r\n"), "1: the header has no column for field 'id' (i32)");
  EXPECT_EQ(csv("id:i32,x:f64", csv_header::present).error("x,\"id\"z\n"),
            "6: expected ',' or a line end after header column 2, found 'z'");
  // A first row that is no header row is a record.
  EXPECT_EQ(p.error("x,\"id\"z\n"),
            "0: expected a decimal integer for field 'id' (i32), found \"x\"");
  EXPECT_EQ(csv("id:i32,x:f64", csv_header::present).error("\n1,2\n"),
            "0: expected a header row naming the columns, found an empty line");
  EXPECT_EQ(csv("id:i32,x:f64", csv_header::present).error("1,2\n"),
            "0: header column 1 '1' names no field of the schema (id, x)");
}

TEST(text2bin_csv, records_before_a_bad_one_stay_in_the_output) {
  csv p("id:i32,x:f64", csv_header::absent);
  std::vector<unsigned char> out = {9};
  EXPECT_THROW(p.parser->parse("1,0.5\n-2,1e3\n3,x\n", true, out), text2bin::text_error);
  auto want = id_x({{1, 0.5}, {-2, 1000}});
  want.insert(want.begin(), 9);
  EXPECT_EQ(out, want);
}

TEST(text2bin_csv, read_head_waits_for_the_whole_header_row) {
  csv p("id:i32,x:f64");
  EXPECT_EQ(p.parser->read_head("x,\"i", false), std::nullopt);
  EXPECT_EQ(p.parser->read_head("x,\"id\"", false), std::nullopt);
  EXPECT_EQ(p.parser->read_head("x,\"id\"\r\n1", false), 8u);
  EXPECT_EQ(p.parser->read_head("x,id", true), 4u);
  EXPECT_EQ(csv("id:i32,x:f64", csv_header::absent).parser->read_head("", false), 0u);
}

TEST(text2bin_csv, whole_records_cuts_only_at_line_ends_outside_quotes) {
  csv p("a:i32,b:i32");
  auto cut = [&](std::string_view text) { return p.parser->whole_records(text, false); };
  EXPECT_EQ(cut(""), 0u);
  EXPECT_EQ(cut("1,2"), 0u);
  EXPECT_EQ(cut("1,2\n3,4"), 4u);
  EXPECT_EQ(cut("1,2\r\n3,4\r\n"), 10u);
  EXPECT_EQ(cut("1,\"2\n3\"\n4,5"), 8u);
  EXPECT_EQ(cut("1,2\n3,\"4\n5"), 4u);
  EXPECT_EQ(cut("1,\"2\n"), 0u);
  EXPECT_EQ(p.parser->whole_records("1,\"2\n", true), 5u);
}

// One past the last '\n' outside quotes, a byte at a time.
std::size_t last_row_end_slowly(std::string_view text) {
  bool inside = false;
  std::size_t end = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '"') inside = !inside;
    if (text[i] == '\n' && !inside) end = i + 1;
  }
  return end;
}

TEST(text2bin_csv, the_block_scan_agrees_with_a_byte_at_a_time_one) {
  std::mt19937 random(5);
  const char alphabet[] = {'"', '\n', ',', '1', '\r', 'x', '"', '\n'};
  for (int round = 0; round < 3000; ++round) {
    std::string text(random() % 300, ' ');
    int quote_odds = 2 + static_cast<int>(random() % 40);
    for (char& c : text) {
      c = alphabet[random() % 8];
      if (c == '"' && random() % quote_odds != 0) c = '7';
    }
    ASSERT_EQ(text2bin::last_row_end(text), last_row_end_slowly(text)) << text;
  }
}

}  // namespace
