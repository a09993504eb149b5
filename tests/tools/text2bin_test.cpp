// sluice-text2bin's conversion (tools/text2bin/convert.*): sluice-bin2text's
// CSV, JSON Lines and XML back to identical bytes whatever the threads and
// pieces, another producer's CSV (Python's csv module), and every bad input
// named by line, column and offset with the output left as it was. (Each
// format's parser has its own tests, with their other producers.)
#include <fcntl.h>
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bin2text/convert.hpp"
#include "common/schema.hpp"
#include "support/child_process.hpp"
#include "support/test_support.hpp"
#include "text2bin/convert.hpp"
#include "tool_run.hpp"

namespace {

using namespace sluice_test;

using text2bin_test = dir_test;

constexpr const char* every_type = "a:i8,b:u8,c:i16,d:u16,e:i32,f:u32,g:i64,h:u64,x:f32,y:f64";

// Bits of a float or double worth a round trip: extremes, zeros, subnormals,
// infinities, NaN of either sign (as bin2text writes it), or random bits
// (a NaN among them made the plain quiet one, its sign kept).
template <class Bits, class Float>
Bits float_bits(std::mt19937_64& random) {
  using limits = std::numeric_limits<Float>;
  const Float specials[] = {0,
                            -Float(0),
                            limits::denorm_min(),
                            -limits::denorm_min(),
                            limits::min() - limits::denorm_min(),
                            limits::min(),
                            limits::max(),
                            -limits::max(),
                            limits::infinity(),
                            -limits::infinity(),
                            limits::quiet_NaN(),
                            -limits::quiet_NaN()};
  if (random() % 4 == 0) return std::bit_cast<Bits>(specials[random() % std::size(specials)]);
  auto bits = static_cast<Bits>(random());
  if (!std::isnan(std::bit_cast<Float>(bits))) return bits;
  Bits sign = bits & (Bits{1} << (8 * sizeof(Bits) - 1));
  return sign | std::bit_cast<Bits>(limits::quiet_NaN());
}

// Records of every_type: random bits, a quarter of the fields an extreme.
std::string varied_records(std::size_t count) {
  std::mt19937_64 random(7);
  std::string bytes;
  auto put = [&](std::uint64_t bits, std::size_t size) {
    for (std::size_t i = 0; i < size; ++i) bytes.push_back(static_cast<char>(bits >> (8 * i)));
  };
  for (std::size_t n = 0; n < count; ++n) {
    for (std::size_t size : {1, 1, 2, 2, 4, 4, 8, 8}) {
      std::uint64_t extremes[] = {0, ~std::uint64_t{0}, std::uint64_t{1} << (8 * size - 1),
                                  (std::uint64_t{1} << (8 * size - 1)) - 1};
      put(random() % 4 == 0 ? extremes[random() % 4] : random(), size);
    }
    put(float_bits<std::uint32_t, float>(random), 4);
    put(float_bits<std::uint64_t, double>(random), 8);
  }
  return bytes;
}

// The input file name of each format: dir/in.csv, in.jsonl, in.xml.
std::string input_name(sluice_tools::format format) {
  switch (format) {
    case sluice_tools::format::csv: return "in.csv";
    case sluice_tools::format::jsonl: return "in.jsonl";
    case sluice_tools::format::xml: break;
  }
  return "in.xml";
}

// `records` as sluice-bin2text writes them in `format`, in its input file.
void write_text(const temp_dir& dir, const std::string& records, const char* schema,
                sluice_tools::format format = sluice_tools::format::csv) {
  write_all(dir / "in.bin", records);
  bin2text::job work;
  work.input = (dir / "in.bin").native();
  work.output = (dir / input_name(format)).native();
  work.layout = sluice_tools::parse_schema(schema);
  work.format = format;
  bin2text::run(work);
}

void write_csv(const temp_dir& dir, const std::string& records, const char* schema) {
  write_text(dir, records, schema);
}

text2bin::job text_job(const temp_dir& dir, const char* schema, sluice_tools::format format) {
  text2bin::job work;
  work.input = (dir / input_name(format)).native();
  work.output = (dir / "out.bin").native();
  work.layout = sluice_tools::parse_schema(schema);
  work.format = format;
  return work;
}

text2bin::job csv_job(const temp_dir& dir, const char* schema) {
  return text_job(dir, schema, sluice_tools::format::csv);
}

// every_type's records as they come back through JSON Lines, which has no
// NaN or infinity: sluice-bin2text writes null for each, which reads back
// as the positive quiet NaN.
std::string as_json_keeps_them(std::string records) {
  for (std::size_t at = 0; at < records.size(); at += 42) {  // x at 30, y at 34
    float x;
    double y;
    std::memcpy(&x, &records[at + 30], 4);
    std::memcpy(&y, &records[at + 34], 8);
    if (!std::isfinite(x)) x = std::numeric_limits<float>::quiet_NaN();
    if (!std::isfinite(y)) y = std::numeric_limits<double>::quiet_NaN();
    std::memcpy(&records[at + 30], &x, 4);
    std::memcpy(&records[at + 34], &y, 8);
  }
  return records;
}

TEST_F(text2bin_test, bin2text_text_round_trips_to_identical_bytes_in_every_format) {
  std::string records = varied_records(20000);
  for (auto format :
       {sluice_tools::format::csv, sluice_tools::format::jsonl, sluice_tools::format::xml}) {
    std::string expected =
        format == sluice_tools::format::jsonl ? as_json_keeps_them(records) : records;
    write_text(dir, records, every_type, format);
    auto work = text_job(dir, every_type, format);
    for (std::size_t piece : {std::size_t{4} << 20, std::size_t{1000}, std::size_t{1}}) {
      for (unsigned threads : {1u, 2u, 5u}) {
        work.threads = threads;
        work.piece_bytes = piece;
        std::filesystem::remove(dir / "out.bin");
        text2bin::run(work);
        EXPECT_TRUE(read_all(dir / "out.bin") == expected)
            << input_name(format) << ": " << threads << " threads, pieces of " << piece << " bytes";
      }
    }
  }
}

TEST_F(text2bin_test, big_endian_records_round_trip_too) {
  std::string little = varied_records(3000);
  std::string big;
  const std::size_t sizes[] = {1, 1, 2, 2, 4, 4, 8, 8, 4, 8};
  for (std::size_t at = 0; at < little.size();)
    for (std::size_t size : sizes) {
      big.append(little.rbegin() + static_cast<std::ptrdiff_t>(little.size() - at - size),
                 little.rbegin() + static_cast<std::ptrdiff_t>(little.size() - at));
      at += size;
    }
  write_csv(dir, little, every_type);
  auto work = csv_job(dir, every_type);
  work.big_endian = true;
  text2bin::run(work);
  EXPECT_TRUE(read_all(dir / "out.bin") == big);
}

TEST_F(text2bin_test, an_empty_input_gives_no_records) {
  write_all(dir / "in.csv", "");
  text2bin::run(csv_job(dir, "id:i32"));
  EXPECT_EQ(read_all(dir / "out.bin"), "");
  write_all(dir / "in.csv", "id\n");
  text2bin::run(csv_job(dir, "id:i32"));
  EXPECT_EQ(read_all(dir / "out.bin"), "");
}

#ifdef SLUICE_TEST_PYTHON3
// Python's csv module rewrites dir/in.csv into dir/python.csv: every cell
// quoted, "\r\n" line ends, the columns in reverse order.
void rewrite_with_python(const temp_dir& dir) {
  write_all(dir / "rewrite.py",
            "import csv, sys\n"
            "with open(sys.argv[1], newline='') as f, open(sys.argv[2], 'w', newline='') as g:\n"
            "    out = csv.writer(g, quoting=csv.QUOTE_ALL, lineterminator='\\r\\n')\n"
            "    for row in csv.reader(f):\n"
            "        out.writerow(row[::-1])\n");
  std::string command = std::string("'") + SLUICE_TEST_PYTHON3 + "' '" +
                        (dir / "rewrite.py").native() + "' '" + (dir / "in.csv").native() + "' '" +
                        (dir / "python.csv").native() + "'";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
}

TEST_F(text2bin_test, python_csv_quoting_everything_in_another_order_reads_the_same) {
  std::string records = varied_records(5000);
  write_csv(dir, records, every_type);
  rewrite_with_python(dir);
  std::string python = read_all(dir / "python.csv");
  ASSERT_EQ(python.rfind("\"y\",\"x\",\"h\"", 0), 0u) << python.substr(0, 40);
  auto work = csv_job(dir, every_type);
  work.input = (dir / "python.csv").native();
  for (unsigned threads : {1u, 2u, 5u}) {
    work.threads = threads;
    work.piece_bytes = 777;
    text2bin::run(work);
    EXPECT_TRUE(read_all(dir / "out.bin") == records) << threads << " threads";
  }
}
#endif

// The lines "<i>,<i>.5\n" for i in [0, count), and the offset of line `n`
// (from 0).
std::string numbered_lines(std::size_t count) {
  std::string text = "id,x\n";
  for (std::size_t i = 0; i < count; ++i)
    text += std::to_string(i) + "," + std::to_string(i) + ".5\n";
  return text;
}

// The message text2bin::run gives for dir/in.csv, or "no error", run with
// each thread count and piece size: each must say the same.
std::string error_of(const temp_dir& dir, const char* schema = "id:i32,x:f64") {
  std::string said;
  for (std::size_t piece : {std::size_t{4} << 20, std::size_t{64}, std::size_t{1}}) {
    for (unsigned threads : {1u, 2u, 5u}) {
      auto work = csv_job(dir, schema);
      work.threads = threads;
      work.piece_bytes = piece;
      std::string message = "no error";
      try {
        text2bin::run(work);
      } catch (const std::runtime_error& e) {
        message = e.what();
      }
      if (said.empty()) said = message;
      EXPECT_EQ(message, said) << threads << " threads, pieces of " << piece;
    }
  }
  return said;
}

TEST_F(text2bin_test, a_bad_byte_is_named_by_line_column_and_offset_and_the_output_kept) {
  std::string text = numbered_lines(3000);
  std::size_t line = text.find("\n2345,") + 1;  // line 2347: the header, then 0...
  struct bad {
    std::string replacing, by;
    std::size_t column;
    std::string what;
  };
  const bad cases[] = {
      {"2345,2345.5", "2345,2345.5x", 6,
       "expected a number for field 'x' (f64), found \"2345.5x\""},
      {"2345,2345.5", "2345", 5, "expected 2 fields, found 1: field 'x' (f64) is missing"},
      {"2345,2345.5", "2345,1,2", 7,
       "expected 2 fields, found more: ',' after field 'x' (f64), the last"},
      {"2345,2345.5", "3000000000,1", 1, "field 'id' (i32) out of range: \"3000000000\""},
      {"2345,2345.5", "\"2345\"?,1", 7, "expected ',' after field 'id' (i32), found '?'"},
      {"2345,2345.5", "2345,\"1", 6,
       "unterminated quote: the cell that starts here has no closing '\"'"},
  };
  for (const bad& c : cases) {
    std::string broken = text;
    broken.replace(line, c.replacing.size(), c.by);
    write_all(dir / "in.csv", broken);
    write_all(dir / "out.bin", "previous content");
    EXPECT_EQ(error_of(dir), "'" + (dir / "in.csv").native() + "' line 2347, column " +
                                 std::to_string(c.column) + " (offset " +
                                 std::to_string(line + c.column - 1) + "): " + c.what);
    EXPECT_EQ(read_all(dir / "out.bin"), "previous content");
  }
}

TEST_F(text2bin_test, header_errors_are_on_line_one) {
  write_all(dir / "in.csv", "id,y\n1,2\n");
  EXPECT_EQ(error_of(dir), "'" + (dir / "in.csv").native() +
                               "' line 1, column 4 (offset 3): header column 2 'y' names no "
                               "field of the schema (id, x)");
}

TEST_F(text2bin_test, a_quoted_cell_across_lines_is_named_where_its_value_starts) {
  write_all(dir / "in.csv", "id,x\n1,2\n3,\"\n\n4x\"\n");
  EXPECT_EQ(error_of(dir), "'" + (dir / "in.csv").native() +
                               "' line 3, column 4 (offset 12): expected a number for field 'x' "
                               "(f64), found \"\\x0a\\x0a4x\"");
}

TEST_F(text2bin_test, a_record_longer_than_the_limit_is_an_error_at_its_start) {
  std::string text = numbered_lines(100);
  std::size_t start = text.size();
  text += std::string(10000, '7') + ",1\n";
  write_all(dir / "in.csv", text);
  auto work = csv_job(dir, "id:i32,x:f64");
  work.piece_bytes = 1000;
  work.max_record_bytes = 4096;
  try {
    text2bin::run(work);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("' line 102, column 1 (offset " + std::to_string(start) +
                        "): no record ends within 4096 bytes"),
              std::string::npos)
        << what;
  }
  work.max_record_bytes = 20000;
  EXPECT_THROW(text2bin::run(work), std::runtime_error);  // "777...7" is out of range
}

// A bad value on line 3 of JSON Lines and of XML: the message names the
// line, column and offset, the same with every thread count and piece
// size, and the output is kept.
TEST_F(text2bin_test, json_lines_and_xml_errors_are_named_by_line_column_and_offset) {
  struct bad {
    sluice_tools::format format;
    std::string text;
    std::size_t column;
    std::string what;
  };
  const bad cases[] = {
      {sluice_tools::format::jsonl, "{\"id\":1}\n\n{\"id\":3x}\n", 8,
       "expected ',' or '}' after field 'id' (i32), found 'x'"},
      {sluice_tools::format::xml,
       "<?xml version=\"1.0\"?>\n<records>\n  <record id=\"3x\"/>\n</records>\n", 15,
       "expected a decimal integer for field 'id' (i32), found \"3x\""},
  };
  for (const bad& c : cases) {
    write_all(dir / input_name(c.format), c.text);
    std::size_t line_start = c.text.find('\n', c.text.find('\n') + 1) + 1;
    std::string said;
    for (std::size_t piece : {std::size_t{4} << 20, std::size_t{8}, std::size_t{1}}) {
      for (unsigned threads : {1u, 2u, 5u}) {
        write_all(dir / "out.bin", "previous content");
        auto work = text_job(dir, "id:i32", c.format);
        work.threads = threads;
        work.piece_bytes = piece;
        try {
          text2bin::run(work);
          said = "no error";
        } catch (const std::runtime_error& e) {
          said = e.what();
        }
        EXPECT_EQ(said, "'" + (dir / input_name(c.format)).native() + "' line 3, column " +
                            std::to_string(c.column) + " (offset " +
                            std::to_string(line_start + c.column - 1) + "): " + c.what)
            << threads << " threads, pieces of " << piece;
        EXPECT_EQ(read_all(dir / "out.bin"), "previous content");
      }
    }
  }
}

#ifdef SLUICE_TEXT2BIN
TEST_F(text2bin_test, the_tool_reads_standard_input_when_no_input_is_named) {
  std::string records = varied_records(3000);
  write_csv(dir, records, every_type);
  for (bool named : {false, true}) {
    int in = ::open((dir / "in.csv").c_str(), O_RDONLY | O_CLOEXEC);
    ASSERT_GE(in, 0);
    std::vector<std::string> args = {"--schema", every_type, "--format",
                                     "csv",      "-o",       (dir / "out.bin").native()};
    if (named) args.push_back("-");
    program_output run = run_program(SLUICE_TEXT2BIN, args, in);
    ::close(in);
    EXPECT_EQ(run.err, "");
    EXPECT_TRUE(exited_with(run.status, 0)) << run.status;
    EXPECT_TRUE(read_all(dir / "out.bin") == records);
  }
}

TEST_F(text2bin_test, the_tool_writes_standard_output_without_an_output_file) {
  std::string records = varied_records(30000);  // more than a pipe holds
  write_csv(dir, records, every_type);
  program_output run = run_program(
      SLUICE_TEXT2BIN, {"--schema", every_type, "--format", "csv", (dir / "in.csv").native()},
      STDIN_FILENO);
  EXPECT_EQ(run.err, "");
  EXPECT_TRUE(exited_with(run.status, 0)) << run.status;
  EXPECT_TRUE(run.out == records);
}

TEST_F(text2bin_test, a_large_input_shows_progress_when_stderr_is_a_terminal) {
  std::string text = "v\n";
  for (std::size_t i = 0; text.size() < (std::size_t{64} << 20); ++i) text += "1\n";
  write_all(dir / "in.csv", text);
  int terminal = -1, tool_side = -1;
  ASSERT_EQ(::openpty(&terminal, &tool_side, nullptr, nullptr, nullptr), 0);
  pid_t child = spawn(SLUICE_TEXT2BIN,
                      {"--schema", "v:u8", "--format", "csv", "-o", (dir / "out.bin").native(),
                       (dir / "in.csv").native()},
                      STDIN_FILENO, STDOUT_FILENO, tool_side);
  ::close(tool_side);
  std::string shown;
  char chunk[4096];
  // Once the tool has exited and no one holds its side, read() fails (EIO).
  for (ssize_t n; (n = ::read(terminal, chunk, sizeof chunk)) > 0;) shown.append(chunk, n);
  ::close(terminal);
  int status = wait_for(child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  std::size_t redrawn = 0;  // a piece of 1 MiB at a time
  for (std::size_t at = 0; (at = shown.find("\rsluice-text2bin: ", at)) != shown.npos; ++at)
    ++redrawn;
  EXPECT_GE(redrawn, 10u) << shown;
  EXPECT_NE(shown.find("100% of 64 MiB\r\n"), std::string::npos) << shown;
  EXPECT_EQ(size_on_disk(dir / "out.bin"), (text.size() - 2) / 2);
}

TEST_F(text2bin_test, the_tool_reads_a_pipe_and_reports_bad_input_with_status_1) {
  int ends[2];
  ASSERT_EQ(::pipe2(ends, O_CLOEXEC), 0);
  write_all(dir / "out.bin", "previous content");
  std::string text = numbered_lines(20000) + "1,2,3\n";  // ~300 KB: more than a pipe holds
  std::thread feeder([&] {
    for (std::size_t at = 0; at < text.size();) {
      ssize_t n = ::write(ends[1], text.data() + at, text.size() - at);
      if (n <= 0) break;
      at += static_cast<std::size_t>(n);
    }
    ::close(ends[1]);
  });
  program_output run = run_program(SLUICE_TEXT2BIN,
                                   {"--schema", "id:i32,x:f64", "--format", "csv", "--threads",
                                    "2", "-o", (dir / "out.bin").native(), "-"},
                                   ends[0]);
  feeder.join();
  ::close(ends[0]);
  EXPECT_TRUE(exited_with(run.status, 1)) << run.status;
  EXPECT_EQ(run.err, "sluice-text2bin: 'standard input' line 20002, column 4 (offset " +
                      std::to_string(text.size() - 3) +
                      "): expected 2 fields, found more: ',' after field 'x' (f64), the last\n");
  EXPECT_EQ(read_all(dir / "out.bin"), "previous content");
}
#endif

}  // namespace
