// sluice-bench's text2bin scenario: its input (the records as CSV, JSON
// Lines and XML, as sluice-bin2text writes them) reads back to the very
// records it was made of through every converter of its tables but
// sluice's; and the hand CSV converter refuses a bad row, naming it.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/work_dir.hpp"
#include "peers/record_text_peers.hpp"
#include "scenarios/record_text.hpp"
#include "scenarios/records.hpp"
#include "scenarios/text2bin_csv.hpp"
#include "scenarios/text2bin_jsonl.hpp"

namespace {

using namespace sluice::bench;

constexpr std::uint64_t records = 5000;

std::string read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// The packed bytes of the first `count` varied records.
std::string packed_records_of(std::uint64_t count) {
  std::vector<unsigned char> bytes;
  for (std::uint64_t i = 0; i < count; ++i) append_record(bytes, varied_record(i));
  return {bytes.begin(), bytes.end()};
}

std::string text_of(text_form form, const record& r) {
  char line[record_text_room];
  return {line, write_record_text(line, form, r)};
}

// The text of `records` records of `form` in a work directory, and what
// the converters write.
class converted : public ::testing::Test {
 protected:
  void make_input(text_form form) { (*record_text_input(form, records))(dir_.input()); }

  // What `convert` writes from the input.
  std::string output_of(void (*convert)(const target&)) {
    convert({dir_.output(), dir_.companion(), dir_.input(), false, 0});
    return read_file(dir_.output());
  }

  work_dir dir_{default_parent()};
};

TEST(bench_text2bin, a_record_is_written_as_sluice_bin2text_writes_it) {
  record r{7, 1700000000259, -12.34375f, -3301.0048828125, 217};
  EXPECT_EQ(text_of(text_form::csv, r), "7,1700000000259,-12.34375,-3301.0048828125,217\n");
  EXPECT_EQ(text_of(text_form::jsonl, r),
            "{\"id\":7,\"ts\":1700000000259,\"x\":-12.34375,\"y\":-3301.0048828125,"
            "\"flags\":217}\n");
  EXPECT_EQ(text_of(text_form::xml, r),
            "<record id=\"7\" ts=\"1700000000259\" x=\"-12.34375\" y=\"-3301.0048828125\" "
            "flags=\"217\"/>\n");
}

TEST_F(converted, the_text_has_its_head_its_tail_and_the_size_it_was_given) {
  for (text_form form : {text_form::csv, text_form::jsonl, text_form::xml}) {
    SCOPED_TRACE(std::string(form_name(form)));
    record_text_size size = size_record_text(form, 100000);
    make_input(form);
    std::string text = read_file(dir_.input());
    record_text_size made = size_record_text(form, text.size());
    EXPECT_EQ(made.records, records);
    EXPECT_EQ(made.bytes, text.size());
    EXPECT_GE(size.bytes, 100000u);
    EXPECT_LT(size.bytes - text_of(form, varied_record(size.records - 1)).size(), 100000u);
    EXPECT_EQ(text.substr(0, text_head(form).size()), text_head(form));
    EXPECT_EQ(text.substr(text.size() - text_tail(form).size()), text_tail(form));
    EXPECT_EQ(text.substr(text_head(form).size(), 200).substr(0, 10),
              text_of(form, varied_record(0)).substr(0, 10));
  }
}

TEST_F(converted, csv_reads_back_to_its_records_by_hand_and_by_iostreams) {
  make_input(text_form::csv);
  EXPECT_EQ(read_file(dir_.input()).substr(0, 16), "id,ts,x,y,flags\n");
  std::string expected = packed_records_of(records);
  EXPECT_EQ(output_of(csv_by_hand), expected);
  EXPECT_EQ(output_of(csv_with_iostream), expected);
}

TEST_F(converted, json_lines_read_back_to_their_records) {
  make_input(text_form::jsonl);
  std::string expected = packed_records_of(records);
  EXPECT_EQ(output_of(jsonl_by_hand), expected);
  EXPECT_EQ(output_of(jsonl_with_iostream), expected);
  EXPECT_EQ(output_of(jsonl_with_nlohmann), expected);
#ifdef SLUICE_BENCH_HAVE_SIMDJSON
  EXPECT_EQ(output_of(jsonl_with_simdjson), expected);
#endif
}

TEST_F(converted, xml_reads_back_to_its_records) {
  make_input(text_form::xml);
  std::string expected = packed_records_of(records);
#if !defined(SLUICE_BENCH_HAVE_PUGIXML) && !defined(SLUICE_BENCH_HAVE_EXPAT)
  GTEST_SKIP() << "neither pugixml nor expat was found at build time";
#endif
#ifdef SLUICE_BENCH_HAVE_PUGIXML
  EXPECT_EQ(output_of(xml_with_pugixml), expected);
#endif
#ifdef SLUICE_BENCH_HAVE_EXPAT
  EXPECT_EQ(output_of(xml_with_expat), expected);
#endif
}

TEST_F(converted, a_bad_csv_row_is_refused_with_its_number) {
  std::string good = text_of(text_form::csv, varied_record(0));
  std::string bad = "x" + good;
  for (auto convert : {csv_by_hand, csv_with_iostream}) {
    std::ofstream(dir_.input(), std::ios::binary) << "id,ts,x,y,flags\n" << good << bad << good;
    try {
      convert({dir_.output(), dir_.companion(), dir_.input(), false, 0});
      ADD_FAILURE() << "a bad row was accepted";  // by the converter of this iteration
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("CSV row 3:"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
