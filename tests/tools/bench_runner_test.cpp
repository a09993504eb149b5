// sluice-bench's runner, on methods made up for the purpose: a run's output
// is checked before its figure counts (both files, where a run writes two),
// and "vs best peer" compares a row of a group only with the peers of that
// group.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "core/progress.hpp"
#include "core/runner.hpp"
#include "core/summary.hpp"
#include "core/work_dir.hpp"

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
  progress quiet(0);
  case_result result = run_case(two, dir, {.repeat = 2, .sync = false, .buffer_size = 0}, quiet);
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
  progress quiet(0);
  case_result result = run_case(one, dir, {.repeat = 3, .sync = false, .buffer_size = 0}, quiet);
  EXPECT_EQ(result.methods[0].error, "");  // each run's output was "abcd"
  EXPECT_EQ(result.methods[0].seconds.size(), 3u);
  EXPECT_EQ(prepared, 3);
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

}  // namespace
