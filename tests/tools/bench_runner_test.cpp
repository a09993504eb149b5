// sluice-bench's runner, on methods made up for the purpose: a run's output
// is checked before its figure counts (both files, where a run writes two),
// a reading run's result too, against the first good run's; a reading
// case's input is written once for the cases that share it and, in a cold
// case, dropped from the page cache before each run; "vs best peer"
// compares a row of a group only with the peers of that group; and MB/s
// counts what a case says it measures.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "core/page_cache.hpp"
#include "core/progress.hpp"
#include "core/runner.hpp"
#include "core/summary.hpp"
#include "core/work_dir.hpp"
#include "support/filesystem.hpp"

namespace {

using namespace sluice::bench;

void write_file(const char* path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// A method that writes `first` to the run's output and `second` to its
// companion.
method writing(std::string name, std::string first, std::string second) {
  return {std::move(name), role::peer, [first, second](const target& t) {
            write_file(t.path, first);
            write_file(t.companion, second);
          }};
}

TEST(bench_runner, both_files_of_a_two_file_run_are_checked) {
  bench_case two{"two", "two files", 4, {}, {}, 8};
  two.methods = {writing("good", "abcd", "abcd"), writing("second differs", "abcd", "abXd"),
                 writing("second empty", "abcd", ""), writing("first differs", "abcX", "abcX")};
  work_dir dir(default_parent());
  case_input no_input(dir);
  progress quiet(0);
  case_result result =
      run_case(two, dir, {.repeat = 2, .sync = false, .buffer_size = 0}, no_input, quiet);
  EXPECT_EQ(result.methods[0].error, "");
  EXPECT_EQ(result.methods[0].seconds.size(), 2u);
  for (std::size_t i = 1; i < 4; ++i) {
    SCOPED_TRACE(two.methods[i].name);
    EXPECT_NE(result.methods[i].error.find("wrong output"), std::string::npos)
        << result.methods[i].error;
    EXPECT_TRUE(result.methods[i].seconds.empty());
  }
}

// A method's preparation runs before each of its runs, on the run's own
// target, and what it leaves is there when the run starts.
TEST(bench_runner, a_method_starts_from_what_it_prepared) {
  bench_case one{"one", "one file", 4, {}, {}};
  int prepared = 0;
  method appending{"appends", role::peer, [](const target& t) {
                     std::ifstream in(t.path, std::ios::binary);
                     std::string start((std::istreambuf_iterator<char>(in)), {});
                     write_file(t.path, start + "cd");
                   }};
  appending.prepare = [&prepared](const target& t) {
    ++prepared;
    write_file(t.path, "ab");
  };
  one.methods = {appending};
  work_dir dir(default_parent());
  case_input no_input(dir);
  progress quiet(0);
  case_result result =
      run_case(one, dir, {.repeat = 3, .sync = false, .buffer_size = 0}, no_input, quiet);
  EXPECT_EQ(result.methods[0].error, "");  // each run's output was "abcd"
  EXPECT_EQ(result.methods[0].seconds.size(), 3u);
  EXPECT_EQ(prepared, 3);
}

std::string read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// A reading method that returns `result`.
method returning(std::string name, std::string result) {
  return bind_reader(
      std::move(name), role::peer, [](const target&, const std::string& r) { return r; },
      std::move(result));
}

TEST(bench_runner, a_reading_run_that_computes_another_result_posts_no_figure) {
  bench_case reading{"read", "results", 4, {}, {}};
  reading.input = make_input_maker([](const char* path) { write_file(path, "abcd"); });
  std::string long_result(1000, 'x'), other_long = long_result;
  other_long[700] = 'y';
  reading.methods = {returning("first", "4 bytes"), returning("same", "4 bytes"),
                     returning("other", "5 bytes"), returning("same again", "4 bytes")};
  work_dir dir(default_parent());
  case_input input(dir);
  progress quiet(0);
  case_result result =
      run_case(reading, dir, {.repeat = 2, .sync = false, .buffer_size = 0}, input, quiet);
  for (std::size_t i : {0, 1, 3}) {
    SCOPED_TRACE(reading.methods[i].name);
    EXPECT_EQ(result.methods[i].error, "");
    EXPECT_EQ(result.methods[i].seconds.size(), 2u);
  }
  EXPECT_EQ(result.methods[2].error, "wrong result: '5 bytes' where first computed '4 bytes'");
  EXPECT_TRUE(result.methods[2].seconds.empty());

  reading.methods = {returning("long", long_result), returning("other long", other_long)};
  result = run_case(reading, dir, {.repeat = 1, .sync = false, .buffer_size = 0}, input, quiet);
  EXPECT_EQ(result.methods[1].error,
            "wrong result: 1000 bytes that differ from long's (1000 bytes) at byte 700");
}

TEST(bench_runner, cases_that_share_an_input_maker_share_one_file_written_once) {
  int written = 0;
  input_maker shared = make_input_maker([&written](const char* path) {
    ++written;
    write_file(path, "shared");
  });
  input_maker other = make_input_maker([](const char* path) { write_file(path, "other"); });
  std::vector<std::string> seen;
  method recording{"reads", role::peer, {}};
  recording.read = [&seen](const target& t) {
    seen.push_back(read_file(t.input));
    return seen.back();
  };
  bench_case first{"s", "first", 6, {recording}, {}}, second = first, third = first;
  first.input = shared;
  second.input = shared;
  third.input = other;
  work_dir dir(default_parent());
  progress quiet(0);
  {
    case_input input(dir);
    for (const bench_case* c : {&first, &second, &third})
      EXPECT_EQ(run_case(*c, dir, {.repeat = 2, .sync = false, .buffer_size = 0}, input, quiet)
                    .methods[0]
                    .error,
                "");
    EXPECT_EQ(written, 1);
  }
  EXPECT_EQ(seen,
            (std::vector<std::string>{"shared", "shared", "shared", "shared", "other", "other"}));
  EXPECT_FALSE(std::filesystem::exists(dir.input())) << "removed with the case_input";
}

// Where the filesystem keeps cached pages it was asked to drop (tmpfs), the
// case says so, for the table to say that its figures are not cold.
TEST(bench_runner, a_cold_case_starts_each_run_with_its_input_out_of_the_page_cache) {
  work_dir dir(default_parent());
  constexpr std::size_t size = 1 << 20;
  std::vector<std::uint64_t> cached_at_start;
  method measuring{"measures", role::peer, {}};
  measuring.read = [&cached_at_start](const target& t) {
    cached_at_start.push_back(cached_bytes(t.input));
    return read_file(t.input).substr(0, 10);  // and brings it back into the cache
  };
  bench_case cold{"read", "cold", size, {measuring, measuring}, {}};
  cold.input = make_input_maker([](const char* path) { write_file(path, std::string(size, 'c')); });
  cold.input_state = input_cache::cold;
  bench_case cached = cold;
  cached.input_state = input_cache::cached;
  case_input input(dir);
  progress quiet(0);
  case_result result =
      run_case(cold, dir, {.repeat = 2, .sync = false, .buffer_size = 0}, input, quiet);
  if (std::string why = sluice_test::needs_droppable_cache(dir.path()); !why.empty()) {
    EXPECT_EQ(result.input_left_cached, size) << why;
    return;
  }
  EXPECT_EQ(result.input_left_cached, 0u);
  EXPECT_EQ(cached_at_start, (std::vector<std::uint64_t>{0, 0, 0, 0}));
  cached_at_start.clear();
  // The same input, now cached: read back into the cache before the first run.
  drop_from_page_cache(dir.input());
  run_case(cached, dir, {.repeat = 1, .sync = false, .buffer_size = 0}, input, quiet);
  EXPECT_EQ(cached_at_start, (std::vector<std::uint64_t>{size, size}));
}

// A row of `kind` in `group` whose one run of 10^6 bytes took `seconds`.
struct timed {
  role kind;
  int group;
  double seconds;
};

case_summary summary_of(bench_case& c, std::vector<method_result>& results,
                        const std::vector<timed>& rows) {
  for (const timed& row : rows) {
    c.methods.push_back(in_group({"m", row.kind, [](const target&) {}}, row.group));
    results.push_back({{row.seconds}, "", ""});
  }
  return summarize({&c, results});
}

TEST(bench_summary, a_grouped_row_is_compared_with_the_peers_of_its_group_only) {
  bench_case c{"journal", "grouped", 1000000, {}, {}};
  std::vector<method_result> results;
  case_summary summary = summary_of(c, results,
                                    {{role::peer, 1, 1.0},       // 1 MB/s
                                     {role::peer, 16, 0.25},     // 4 MB/s
                                     {role::limit, 0, 0.5},      // 2 MB/s
                                     {role::sluice, 1, 0.5},     // 2 MB/s
                                     {role::sluice, 4, 0.5},     // no peer of 4
                                     {role::sluice, 16, 0.125},  // 8 MB/s
                                     {role::sluice, 0, 0.5}});   // every peer
  const std::vector<row>& rows = summary.rows;
  EXPECT_DOUBLE_EQ(*rows[3].vs_best_peer, 2.0);
  EXPECT_FALSE(rows[4].vs_best_peer);
  EXPECT_DOUBLE_EQ(*rows[5].vs_best_peer, 2.0);
  EXPECT_DOUBLE_EQ(*rows[6].vs_best_peer, 0.5);
  EXPECT_DOUBLE_EQ(*rows[5].vs_limit, 4.0);  // the limit is the same for every group
}

// A converter's table counts the text it reads (bench_case::measured), not
// the smaller output every run's bytes are checked against.
TEST(bench_summary, mb_per_s_counts_the_measured_bytes_where_a_case_sets_them) {
  bench_case c{"text2bin", "converted", 1000000, {}, {}};
  std::vector<method_result> results;
  EXPECT_DOUBLE_EQ(*summary_of(c, results, {{role::peer, 0, 0.5}}).rows[0].mb_per_s, 2.0);
  c.measured = 3000000;
  EXPECT_DOUBLE_EQ(*summarize({&c, results}).rows[0].mb_per_s, 6.0);
}

}  // namespace
