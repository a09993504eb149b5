// sluice-bench --recommend, on tables made up for the purpose: an option is
// recommended only when its fastest row beats the defaults' by the least
// gain and with every run faster; each option is held to the baseline of
// its own table and group; failed rows take no part; and the printout is
// an initializer per struct, with the options left at their defaults and
// why.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/recommend.hpp"
#include "core/summary.hpp"

namespace {

using namespace sluice::bench;

// A row of a made-up table: its option (empty: the baseline), its group,
// and its runs' seconds (none: it failed).
struct made_row {
  std::string options;
  std::string assignment;
  std::vector<double> seconds;
  int group = 0;
};

// A table of 1 MB runs (so that MB/s is 1 / seconds); `c` and `result`
// must outlive the summary, which points into them.
case_summary table_of(bench_case& c, case_result& result, const std::vector<made_row>& rows) {
  result.bench = &c;
  for (const made_row& r : rows) {
    c.methods.push_back(tuning_row(in_group({r.assignment.empty() ? "defaults" : r.assignment,
                                             role::sluice, [](const target&) {}},
                                            r.group),
                                   r.options, r.assignment));
    result.methods.push_back({r.seconds, r.seconds.empty() ? "failed" : "", ""});
  }
  return summarize(result);
}

TEST(bench_recommend, a_clear_gain_is_recommended_with_its_runs) {
  bench_case c{"tune", "tune buffer_size", 1000000, {}, {}};
  case_result results;
  auto verdicts = judge({table_of(c, results,
                                  {{"writer_options", "", {1.0, 1.1, 0.9}},
                                   {"writer_options", "buffer_size = 1 << 20", {0.5, 0.55, 0.45}},
                                   {"writer_options", "buffer_size = 4 << 20", {0.8, 0.8, 0.8}}})});
  ASSERT_EQ(verdicts.size(), 1u);
  const option_verdict& v = verdicts[0];
  EXPECT_EQ(v.field, "buffer_size");
  EXPECT_EQ(v.assignment, "buffer_size = 1 << 20");  // the fastest of the option's rows
  EXPECT_TRUE(v.recommended);
  EXPECT_DOUBLE_EQ(v.gain(), 2.0);
  EXPECT_NEAR(v.best.slowest, 1 / 0.55, 1e-9);
  EXPECT_NEAR(v.best.fastest, 1 / 0.45, 1e-9);
  EXPECT_NEAR(v.baseline.slowest, 1 / 1.1, 1e-9);
  EXPECT_NEAR(v.baseline.fastest, 1 / 0.9, 1e-9);
}

TEST(bench_recommend, a_gain_within_the_runs_spread_or_too_small_keeps_the_default) {
  bench_case c{"tune", "tune write_behind", 1000000, {}, {}};
  bench_case d{"tune", "tune preallocate", 1000000, {}, {}};
  case_result c_results, d_results;
  auto verdicts = judge({table_of(c, c_results,
                                  {{"writer_options", "", {1.0, 1.0, 0.5}},
                                   {"writer_options", "write_behind = true", {0.6, 0.7, 0.65}}}),
                         table_of(d, d_results,
                                  {{"writer_options", "", {1.0}},
                                   {"writer_options", "preallocate = 1000000", {0.97}}})});
  ASSERT_EQ(verdicts.size(), 2u);
  EXPECT_GT(verdicts[0].gain(), least_gain);  // by the median, but one run of the defaults
  EXPECT_FALSE(verdicts[0].recommended);      // was faster than its slowest
  EXPECT_GT(verdicts[1].best.slowest, verdicts[1].baseline.fastest);  // every run faster,
  EXPECT_FALSE(verdicts[1].recommended);                              // but only 1.03x
}

TEST(bench_recommend, each_option_is_held_to_the_baseline_of_its_own_group) {
  bench_case c{"journal", "journal", 1000000, {}, {}};
  case_result results;
  auto verdicts = judge({table_of(c, results,
                                  {{"journal_options", "", {1.0}, 1},
                                   {"journal_options", "", {0.25}, 16},
                                   {"journal_options", "concurrent_syncs = 2", {0.2}, 16}})});
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_DOUBLE_EQ(verdicts[0].gain(), 1.25);  // against 16 threads' 0.25 s, not 1 thread's 1 s
}

TEST(bench_recommend, failed_rows_and_a_failed_baseline_give_no_verdict) {
  bench_case c{"tune", "tune", 1000000, {}, {}};
  bench_case d{"tune", "tune caching", 1000000, {}, {}};
  case_result c_results, d_results;
  auto verdicts = judge(
      {table_of(c, c_results,
                {{"writer_options", "", {}}, {"writer_options", "write_behind = true", {0.1}}}),
       table_of(d, d_results,
                {{"writer_options", "", {1.0}},
                 {"writer_options", "caching = direct", {}},
                 {"writer_options", "caching = no_cache", {1.25}}})});
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_EQ(verdicts[0].assignment, "caching = no_cache");
  EXPECT_FALSE(verdicts[0].recommended);  // slower than the defaults
}

TEST(bench_recommend, prints_an_initializer_per_struct_and_why_the_rest_stay) {
  bench_case c{"tune", "tune", 1000000, {}, {}};
  bench_case d{"journal", "journal", 1000000, {}, {}};
  case_result c_results, d_results;
  auto verdicts = judge({table_of(c, c_results,
                                  {{"writer_options", "", {1.0}},
                                   {"writer_options", "buffer_size = 1 << 20", {0.5}},
                                   {"writer_options", "write_behind = true", {2.0}}}),
                         table_of(d, d_results,
                                  {{"journal_options", "", {1.0}},
                                   {"journal_options", "concurrent_syncs = 2", {0.98}}})});
  std::ostringstream out;
  print_recommendation(out, verdicts);
  std::string text = out.str();
  EXPECT_NE(text.find("  sluice::writer_options writer_options{\n"
                      "      .buffer_size = 1 << 20,  // 2.00x the defaults (runs 2-2 MB/s "
                      "against 1-1)\n  };\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  sluice::journal_options journal_options{};  // sluice's defaults were "
                      "fastest\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("writer_options::write_behind: the default was fastest; the best other, "
                      "write_behind = true, at 0.50x"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("journal_options::concurrent_syncs: concurrent_syncs = 2 at 1.02x, less "
                      "than 1.05x"),
            std::string::npos)
      << text;
}

TEST(bench_recommend, nothing_to_judge_prints_nothing) {
  std::ostringstream out;
  print_recommendation(out, judge({}));
  EXPECT_EQ(out.str(), "");
}

}  // namespace
