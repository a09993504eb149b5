// sluice-bin2text's conversion: round trips through CSV and JSON Lines back
// to identical values, and every bad input refused with a clear error and no
// output left behind.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bin2text/convert.hpp"
#include "common/schema.hpp"
#include "common/text_format.hpp"
#include "support/child_process.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;

using bin2text_test = dir_test;

constexpr const char* every_type = "a:i8,b:u8,c:i16,d:u16,e:i32,f:u32,g:i64,h:u64,x:f32,y:f64";

// Random records of every type: raw bit patterns, NaNs left out (they have
// no single text form to compare).
std::vector<unsigned char> random_records(std::size_t count, bool big_endian) {
  std::mt19937_64 random(11);
  std::vector<unsigned char> bytes;
  auto put = [&](std::uint64_t bits, std::size_t size) {
    for (std::size_t i = 0; i < size; ++i) {
      std::size_t shift = 8 * (big_endian ? size - 1 - i : i);
      bytes.push_back(static_cast<unsigned char>(bits >> shift));
    }
  };
  for (std::size_t n = 0; n < count; ++n) {
    for (std::size_t size : {1, 1, 2, 2, 4, 4, 8, 8}) put(random(), size);
    std::uint32_t x;
    do x = static_cast<std::uint32_t>(random());
    while (std::isnan(std::bit_cast<float>(x)));
    std::uint64_t y;
    do y = random();
    while (std::isnan(std::bit_cast<double>(y)));
    put(x, 4);
    put(y, 8);
  }
  return bytes;
}

template <class T>
T field_of(const std::vector<unsigned char>& bytes, std::size_t record, std::size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + record * 42 + offset, sizeof value);
  return value;
}

bin2text::job make_job(const temp_dir& dir, sluice_tools::format format, const char* schema) {
  bin2text::job work;
  work.input = (dir / "in.bin").native();
  work.output = (dir / "out").native();
  work.layout = sluice_tools::parse_schema(schema);
  work.format = format;
  return work;
}

// The record's values as the test reads them back, each as text of its
// exact value.
std::vector<std::string> expected_values(const std::vector<unsigned char>& bytes, std::size_t r) {
  return {std::to_string(field_of<std::int8_t>(bytes, r, 0)),
          std::to_string(field_of<std::uint8_t>(bytes, r, 1)),
          std::to_string(field_of<std::int16_t>(bytes, r, 2)),
          std::to_string(field_of<std::uint16_t>(bytes, r, 4)),
          std::to_string(field_of<std::int32_t>(bytes, r, 6)),
          std::to_string(field_of<std::uint32_t>(bytes, r, 10)),
          std::to_string(field_of<std::int64_t>(bytes, r, 14)),
          std::to_string(field_of<std::uint64_t>(bytes, r, 22)),
          std::to_string(std::bit_cast<std::uint32_t>(field_of<float>(bytes, r, 30))),
          std::to_string(std::bit_cast<std::uint64_t>(field_of<double>(bytes, r, 34)))};
}

// A CSV cell read back: integers as they are, floating point as the bits
// strtof/strtod give.
std::string cell_value(const std::string& cell, std::size_t column) {
  if (column == 8)
    return std::to_string(std::bit_cast<std::uint32_t>(std::strtof(cell.c_str(), nullptr)));
  if (column == 9)
    return std::to_string(std::bit_cast<std::uint64_t>(std::strtod(cell.c_str(), nullptr)));
  return cell;
}

TEST_F(bin2text_test, csv_round_trips_every_type_to_identical_values) {
  constexpr std::size_t count = 20000;
  auto bytes = random_records(count, false);
  write_all(dir / "in.bin", std::string(bytes.begin(), bytes.end()));
  bin2text::run(make_job(dir, sluice_tools::format::csv, every_type));
  std::istringstream csv(read_all(dir / "out"));
  std::string line;
  ASSERT_TRUE(std::getline(csv, line));
  EXPECT_EQ(line, "a,b,c,d,e,f,g,h,x,y");
  for (std::size_t r = 0; r < count; ++r) {
    ASSERT_TRUE(std::getline(csv, line)) << r;
    std::istringstream cells(line);
    std::vector<std::string> values;
    for (std::string cell; std::getline(cells, cell, ',');)
      values.push_back(cell_value(cell, values.size()));
    ASSERT_EQ(values, expected_values(bytes, r)) << line;
  }
  EXPECT_FALSE(std::getline(csv, line));
}

TEST_F(bin2text_test, jsonl_round_trips_through_nlohmann) {
  constexpr std::size_t count = 5000;
  auto bytes = random_records(count, false);
  write_all(dir / "in.bin", std::string(bytes.begin(), bytes.end()));
  bin2text::run(make_job(dir, sluice_tools::format::jsonl, every_type));
  std::istringstream lines(read_all(dir / "out"));
  std::string line;
  for (std::size_t r = 0; r < count; ++r) {
    ASSERT_TRUE(std::getline(lines, line));
    auto record = nlohmann::json::parse(line);
    auto want = expected_values(bytes, r);
    EXPECT_EQ(std::to_string(record["a"].get<std::int64_t>()), want[0]);
    EXPECT_EQ(std::to_string(record["d"].get<std::uint64_t>()), want[3]);
    EXPECT_EQ(std::to_string(record["g"].get<std::int64_t>()), want[6]);
    EXPECT_EQ(std::to_string(record["h"].get<std::uint64_t>()), want[7]);
    float x = std::bit_cast<float>(static_cast<std::uint32_t>(std::stoul(want[8])));
    if (std::isinf(x))
      EXPECT_TRUE(record["x"].is_null());
    else
      EXPECT_EQ(std::bit_cast<std::uint32_t>(static_cast<float>(record["x"].get<double>())),
                std::bit_cast<std::uint32_t>(x))
          << line;
    // Infinities are null: JSON has no such number.
    double y = std::bit_cast<double>(std::stoull(want[9]));
    if (std::isinf(y))
      EXPECT_TRUE(record["y"].is_null());
    else
      EXPECT_EQ(std::to_string(std::bit_cast<std::uint64_t>(record["y"].get<double>())), want[9]);
  }
  EXPECT_FALSE(std::getline(lines, line));
}

TEST_F(bin2text_test, big_endian_input_gives_the_same_text) {
  auto little = random_records(500, false);
  auto big = random_records(500, true);
  write_all(dir / "in.bin", std::string(little.begin(), little.end()));
  auto work = make_job(dir, sluice_tools::format::xml, every_type);
  bin2text::run(work);
  std::string from_little = read_all(dir / "out");
  write_all(dir / "in.bin", std::string(big.begin(), big.end()));
  work.big_endian = true;
  bin2text::run(work);
  EXPECT_EQ(read_all(dir / "out"), from_little);
}

TEST_F(bin2text_test, any_number_of_threads_gives_the_same_text) {
  auto bytes = random_records(30000, false);  // 1.26 MB: several chunks
  write_all(dir / "in.bin", std::string(bytes.begin(), bytes.end()));
  for (auto format :
       {sluice_tools::format::xml, sluice_tools::format::csv, sluice_tools::format::jsonl}) {
    auto work = make_job(dir, format, every_type);
    work.threads = 1;
    bin2text::run(work);
    std::string one_thread = read_all(dir / "out");
    for (unsigned threads : {2u, 5u}) {
      work.threads = threads;
      bin2text::run(work);
      EXPECT_TRUE(read_all(dir / "out") == one_thread) << threads << " threads differ";
    }
  }
}

TEST_F(bin2text_test, xml_as_documented) {
  std::string record(6, '\0');
  std::int32_t id = -5;
  std::uint16_t flags = 513;
  std::memcpy(record.data(), &id, 4);
  std::memcpy(record.data() + 4, &flags, 2);
  write_all(dir / "in.bin", record + record);
  bin2text::run(make_job(dir, sluice_tools::format::xml, "id:i32,flags:u16"));
  EXPECT_EQ(read_all(dir / "out"),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<records>\n"
            "<record id=\"-5\" flags=\"513\"/>\n<record id=\"-5\" flags=\"513\"/>\n</records>\n");
}

TEST_F(bin2text_test, non_finite_values_are_null_in_json_and_inf_elsewhere) {
  double values[] = {std::numeric_limits<double>::infinity(),
                     -std::numeric_limits<double>::infinity(), 0.5};
  write_all(dir / "in.bin", std::string(reinterpret_cast<const char*>(values), sizeof values));
  bin2text::run(make_job(dir, sluice_tools::format::jsonl, "v:f64"));
  EXPECT_EQ(read_all(dir / "out"), "{\"v\":null}\n{\"v\":null}\n{\"v\":0.5}\n");
  bin2text::run(make_job(dir, sluice_tools::format::csv, "v:f64"));
  EXPECT_EQ(read_all(dir / "out"), "v\ninf\n-inf\n0.5\n");
}

TEST_F(bin2text_test, a_truncated_input_names_the_offset_and_keeps_the_old_output) {
  write_all(dir / "in.bin", std::string(26 * 3 + 5, 'x'));
  write_all(dir / "out", "previous content");
  try {
    bin2text::run(make_job(dir, sluice_tools::format::csv, "id:i32,ts:i64,x:f32,y:f64,flags:u16"));
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("in.bin' is 83 bytes"), std::string::npos) << what;
    EXPECT_NE(what.find("record at offset 78 is truncated"), std::string::npos) << what;
  }
  EXPECT_EQ(read_all(dir / "out"), "previous content");
}

TEST_F(bin2text_test, unwritable_output_and_missing_input_are_system_errors) {
  write_all(dir / "in.bin", std::string(8, 'x'));
  auto work = make_job(dir, sluice_tools::format::csv, "v:u64");
  work.output = (dir / "missing" / "out.csv").native();
  auto error = thrown([&] { bin2text::run(work); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code(), std::error_code(ENOENT, std::generic_category()));
  EXPECT_NE(std::string(error->what()).find("missing"), std::string::npos) << error->what();
  work = make_job(dir, sluice_tools::format::csv, "v:u64");
  work.input = (dir / "nowhere.bin").native();
  error = thrown([&] { bin2text::run(work); });
  ASSERT_TRUE(error);
  EXPECT_NE(std::string(error->what()).find("nowhere.bin"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

#ifdef SLUICE_BIN2TEXT
// Starts sluice-bin2text with `args`, its standard output on `out` and its
// standard error on `err`; returns its pid.
pid_t spawn_tool(std::vector<std::string> args, int out, int err) {
  return spawn(SLUICE_BIN2TEXT, args, STDIN_FILENO, out, err);
}

// Waits for `child`; fails the test unless it exited with 0.
void expect_success(pid_t child) {
  int status = wait_for(child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
}

// Runs sluice-bin2text with `args` and its standard output a pipe; returns
// what it wrote there. Fails the test unless it exits with 0.
std::string run_tool_into_pipe(std::vector<std::string> args) {
  int ends[2];
  EXPECT_EQ(::pipe2(ends, O_CLOEXEC), 0);
  pid_t child = spawn_tool(std::move(args), ends[1], STDERR_FILENO);
  ::close(ends[1]);
  std::string out = read_to_end(ends[0]);
  ::close(ends[0]);
  expect_success(child);
  return out;
}

// Runs sluice-bin2text with `args` and its standard error a terminal (a
// pseudo-terminal); returns what appeared on it.
std::string run_tool_with_terminal_stderr(std::vector<std::string> args) {
  int terminal = -1, tool_side = -1;
  EXPECT_EQ(::openpty(&terminal, &tool_side, nullptr, nullptr, nullptr), 0);
  pid_t child = spawn_tool(std::move(args), STDOUT_FILENO, tool_side);
  ::close(tool_side);
  std::string shown;
  char chunk[4096];
  // Once the tool has exited and no one holds its side, read() fails (EIO).
  for (ssize_t n; (n = ::read(terminal, chunk, sizeof chunk)) > 0;) shown.append(chunk, n);
  ::close(terminal);
  expect_success(child);
  return shown;
}

TEST_F(bin2text_test, standard_output_through_a_pipe_matches_the_file_output) {
  auto bytes = random_records(30000, false);  // ~1.3 MB of XML: more than a pipe holds
  write_all(dir / "in.bin", std::string(bytes.begin(), bytes.end()));
  for (const char* format : {"xml", "csv", "jsonl"}) {
    std::vector<std::string> args = {"--schema", every_type, "--format", format,
                                     (dir / "in.bin").native()};
    std::string piped = run_tool_into_pipe(args);
    args.insert(args.end() - 1, {"-o", (dir / "out").native()});
    EXPECT_EQ(run_tool_into_pipe(args), "") << "-o writes nothing to standard output";
    EXPECT_GT(piped.size(), 1000000u);
    EXPECT_TRUE(piped == read_all(dir / "out")) << format << ": the outputs differ";
  }
}

TEST_F(bin2text_test, a_large_input_shows_progress_when_stderr_is_a_terminal) {
  write_all(dir / "in.bin", std::string(64 << 20, '\0'));  // 64 MiB: the least that shows it
  std::vector<std::string> args = {"--schema",
                                   "v:u64",
                                   "--format",
                                   "csv",
                                   "-o",
                                   (dir / "out").native(),
                                   (dir / "in.bin").native()};
  std::string shown = run_tool_with_terminal_stderr(args);
  // Redrawn in place, growing, each percentage once, ending at 100% and a
  // new line (the terminal shows "\n" as "\r\n").
  std::vector<int> percents;
  std::istringstream lines(shown);
  for (std::string line; std::getline(lines, line, '\r');) {
    if (line.empty() || line == "\n") continue;
    int percent = -1;
    char rest[32] = {};
    ASSERT_EQ(std::sscanf(line.c_str(), "sluice-bin2text: %d%% of 64 Mi%31s", &percent, rest), 2)
        << line;
    if (!percents.empty()) {
      EXPECT_GT(percent, percents.back()) << shown;
    }
    percents.push_back(percent);
  }
  ASSERT_GE(percents.size(), 10u) << shown;
  EXPECT_EQ(percents.back(), 100);
  EXPECT_NE(shown.find("100% of 64 MiB\r\n"), std::string::npos) << shown;
  EXPECT_EQ(read_all(dir / "out").size(), 2 + (64u << 20) / 8 * 2);

  int ends[2];
  ASSERT_EQ(::pipe2(ends, O_CLOEXEC), 0);
  pid_t child = spawn_tool(args, STDOUT_FILENO, ends[1]);
  ::close(ends[1]);
  EXPECT_EQ(read_to_end(ends[0]), "") << "no progress line on a pipe";
  ::close(ends[0]);
  expect_success(child);
}
#endif

#ifdef SLUICE_BIN2TEXT
// A full standard output is one failure, told once: the tool prints the
// error it was thrown, and the writer's destructor does not print it again.
TEST_F(bin2text_test, a_full_standard_output_is_reported_in_one_line) {
  write_all(dir / "big.bin", pattern(2'400'000));  // 100000 records of 24 bytes
  int full = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
  if (full < 0) GTEST_SKIP() << "no /dev/full";
  int ends[2];
  ASSERT_EQ(::pipe2(ends, O_CLOEXEC), 0);
  pid_t child = spawn_tool(
      {"--schema", "a:i32,b:f64,c:u16,d:u8,e:u8,f:i64", (dir / "big.bin").native()}, full, ends[1]);
  ::close(ends[1]);
  ::close(full);
  std::string said = read_to_end(ends[0]);
  ::close(ends[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << "status " << status;
  EXPECT_EQ(std::count(said.begin(), said.end(), '\n'), 1) << said;
  EXPECT_EQ(said.rfind("sluice-bin2text: sluice: write 'standard output' at offset 0: ", 0), 0u)
      << said;
  EXPECT_NE(said.find(std::strerror(ENOSPC)), std::string::npos) << said;
}
#endif

}  // namespace
