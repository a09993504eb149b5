// sluice-bench's charts and HTML page, on cases made up for the purpose:
// each bar's length is proportional to its MB/s, its whisker spans the
// slowest and the fastest run, the dashed line stands at the fastest limit,
// hostile method names are escaped, and the methods that did not run are
// listed rather than drawn. Also the command line the page shows, the
// charts' file names, and the progress line's text and estimate.
#include <gtest/gtest.h>

#include <regex>
#include <sluice/writer.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/chart.hpp"
#include "core/command_line.hpp"
#include "core/html_report.hpp"
#include "core/progress.hpp"
#include "core/svg_chart.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice::bench;
using sluice_test::read_all;
using sluice_test::temp_dir;

// A case of 1 MB (so MB/s is 1 / seconds) whose methods are added with the
// seconds of their runs, or the error they failed with.
class made_up_case : public ::testing::Test {
 protected:
  void add(std::string name, role kind, std::vector<double> seconds, std::string error = "") {
    bench.methods.push_back({std::move(name), kind, [](const target&) {}});
    result.methods.push_back({std::move(seconds), std::move(error), ""});
  }
  case_summary summary() const { return summarize(result); }

  // What `write` writes through a sluice writer.
  template <class Write>
  std::string written(Write write) const {
    temp_dir dir;
    {
      sluice::writer out(dir / "out");
      write(out);
      out.close();
    }
    return read_all(dir / "out");
  }
  std::string svg(not_run_rows not_run = not_run_rows::listed) const {
    return written(
        [&](sluice::writer& out) { write_svg_chart(out, chart_of(summary()), not_run); });
  }

  bench_case bench{"bytes", "bytes: 1 MB, made up", 1000000, {}, {}};
  case_result result{&bench, {}, 0};
};

// The bars drawn: {class, x, width} in order.
struct drawn_bar {
  std::string kind;
  double x;
  double width;
};
std::vector<drawn_bar> bars_in(const std::string& svg) {
  static const std::regex bar(
      R"re(<rect class="bar (\w+)" data-mb-per-s="[0-9.]+" x="([0-9.]+)" y="[0-9.]+" width="([0-9.]+)")re");
  std::vector<drawn_bar> bars;
  for (std::sregex_iterator m(svg.begin(), svg.end(), bar), end; m != end; ++m)
    bars.push_back({(*m)[1], std::stod((*m)[2]), std::stod((*m)[3])});
  return bars;
}

// The x1 and x2 of each <line class="`cls`">.
std::vector<std::pair<double, double>> lines_in(const std::string& svg, const std::string& cls) {
  std::regex line("<line class=\"" + cls + R"re(" x1="([0-9.]+)" y1="[0-9.]+" x2="([0-9.]+)")re");
  std::vector<std::pair<double, double>> lines;
  for (std::sregex_iterator m(svg.begin(), svg.end(), line), end; m != end; ++m)
    lines.emplace_back(std::stod((*m)[1]), std::stod((*m)[2]));
  return lines;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

constexpr double pixel = 0.11;  // coordinates are written to 0.1

TEST_F(made_up_case, bars_are_proportional_to_mb_per_s_and_coloured_by_role) {
  add("peer at 100", role::peer, {0.01});
  add("sluice at 200", role::sluice, {0.005});
  add("limit at 250", role::limit, {0.004});
  std::vector<drawn_bar> bars = bars_in(svg());
  ASSERT_EQ(bars.size(), 3u);
  EXPECT_EQ(bars[0].kind, "peer");
  EXPECT_EQ(bars[1].kind, "sluice");
  EXPECT_EQ(bars[2].kind, "limit");
  EXPECT_NEAR(bars[1].width, 2 * bars[0].width, 2 * pixel);
  EXPECT_NEAR(bars[2].width, 2.5 * bars[0].width, 2 * pixel);
  EXPECT_EQ(bars[0].x, bars[1].x);
  EXPECT_GT(bars[0].width, 50) << "a bar long enough to see";
}

TEST_F(made_up_case, whiskers_span_the_slowest_and_the_fastest_run) {
  add("three runs", role::sluice, {0.01, 0.008, 0.0125});  // 100 MB/s; 80 to 125
  add("one run", role::peer, {0.01});
  std::string drawn = svg();
  std::vector<drawn_bar> bars = bars_in(drawn);
  std::vector<std::pair<double, double>> whiskers = lines_in(drawn, "whisker");
  ASSERT_EQ(bars.size(), 2u);
  ASSERT_EQ(whiskers.size(), 1u) << "a single run has no whisker";
  double per_mb_per_s = bars[0].width / 100;
  EXPECT_NEAR(whiskers[0].first, bars[0].x + 80 * per_mb_per_s, 2 * pixel);
  EXPECT_NEAR(whiskers[0].second, bars[0].x + 125 * per_mb_per_s, 2 * pixel);
  EXPECT_EQ(count(drawn, "<line class=\"cap\""), 2u);
}

TEST_F(made_up_case, the_limit_line_stands_at_the_fastest_limit) {
  add("peer", role::peer, {0.01});          // 100 MB/s
  add("slow limit", role::limit, {0.005});  // 200
  add("fast limit", role::limit, {0.004});  // 250
  std::string drawn = svg();
  std::vector<drawn_bar> bars = bars_in(drawn);
  std::vector<std::pair<double, double>> limit = lines_in(drawn, "limit");
  ASSERT_EQ(limit.size(), 1u);
  EXPECT_NEAR(limit[0].first, bars[0].x + 2.5 * bars[0].width, 3 * pixel);
  EXPECT_EQ(limit[0].first, limit[0].second) << "upright";
}

TEST_F(made_up_case, without_a_limit_there_is_no_limit_line) {
  add("peer", role::peer, {0.01});
  add("sluice", role::sluice, {0.005});
  EXPECT_TRUE(lines_in(svg(), "limit").empty());
}

TEST_F(made_up_case, methods_that_did_not_run_are_listed_not_drawn) {
  add("ran", role::peer, {0.01});
  add("broke", role::sluice, {}, "write 'x': disk on fire");
  bench.skipped.push_back("RocksDB: skipped, librocksdb not found at build time");
  std::string listed = svg(not_run_rows::listed);
  EXPECT_EQ(bars_in(listed).size(), 1u);
  EXPECT_NE(listed.find(">broke: failed: write 'x': disk on fire</text>"), std::string::npos)
      << listed;
  EXPECT_NE(listed.find(">RocksDB: skipped, librocksdb not found at build time</text>"),
            std::string::npos);
  std::string left_out = svg(not_run_rows::left_out);
  EXPECT_EQ(left_out.find("disk on fire"), std::string::npos);
  EXPECT_EQ(left_out.find("RocksDB"), std::string::npos);
}

TEST_F(made_up_case, a_case_where_nothing_ran_has_no_bars_and_says_why) {
  add("broke", role::sluice, {}, "disk on fire");
  std::string drawn = svg();
  EXPECT_TRUE(bars_in(drawn).empty());
  EXPECT_NE(drawn.find("broke: failed: disk on fire"), std::string::npos);
}

TEST_F(made_up_case, hostile_names_are_escaped) {
  bench.title = "a & b <c>";
  add("<script>alert(\"x\")</script> & co", role::sluice, {0.01, 0.02});
  add("failed <b>", role::peer, {}, "<img src=x onerror=alert(1)>");
  for (const std::string& drawn : {svg(), svg(not_run_rows::left_out)}) {
    EXPECT_EQ(drawn.find("<script"), std::string::npos) << drawn;
    EXPECT_EQ(drawn.find("<b>"), std::string::npos);
    EXPECT_EQ(drawn.find("<img"), std::string::npos);
    EXPECT_NE(drawn.find("<title>a &amp; b &lt;c&gt;</title>"), std::string::npos);
    EXPECT_NE(drawn.find("&lt;script&gt;alert(\"x\")&lt;/script&gt; &amp; co"), std::string::npos)
        << drawn;
  }
}

TEST_F(made_up_case, the_page_has_the_machine_the_command_a_chart_per_case_and_the_text) {
  add("<script>", role::sluice, {0.01});
  add("broke", role::peer, {}, "disk & fire");
  bench_case second{"gather", "gather: the second & last", 1000000, {}, {}};
  second.methods.push_back({"peer", role::peer, [](const target&) {}});
  case_result second_result{&second, {{{0.01}, "", ""}}, 0};
  std::vector<case_summary> cases{summary(), summarize(second_result)};
  run_description run{
      "/tmp/w<d>", {"Some <CPU>", 2, "Linux 6", "2026-01-01T00:00:00Z", "ext4"}, {2, false, 0}};
  std::string page = written([&](sluice::writer& out) {
    write_html_report(out,
                      {run, cases, "sluice-bench --report 'a&b <c>.html'", "<table & text>\n"});
  });
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(count(page, "<svg "), 2u);
  EXPECT_NE(page.find("<title>gather: the second &amp; last</title>"), std::string::npos);
  EXPECT_NE(
      page.find("Some &lt;CPU&gt;, 2 cores, Linux 6, 2026-01-01T00:00:00Z; in /tmp/w&lt;d&gt; "
                "(ext4)"),
      std::string::npos)
      << page;
  EXPECT_NE(
      page.find("<code class=\"command\">sluice-bench --report 'a&amp;b &lt;c&gt;.html'</code>"),
      std::string::npos);
  EXPECT_NE(page.find("<pre class=\"tables\">&lt;table &amp; text&gt;\n</pre>"), std::string::npos);
  EXPECT_NE(page.find("<li>broke: failed: disk &amp; fire</li>"), std::string::npos);
  EXPECT_EQ(count(page, "disk &amp; fire"), 1u) << "listed once, under its chart";
  EXPECT_EQ(page.find("<script"), std::string::npos);
  for (const char* outside : {"src=", "href=", "<link", "@import", "url("})
    EXPECT_EQ(page.find(outside), std::string::npos) << outside << ": the page needs nothing else";
}

TEST(bench_chart_files, a_scenario_of_several_cases_numbers_them) {
  EXPECT_EQ(chart_file_names({"bytes", "gather", "gather", "gather", "read", "read", "lines"}),
            (std::vector<std::string>{"bytes.svg", "gather-1.svg", "gather-2.svg", "gather-3.svg",
                                      "read-1.svg", "read-2.svg", "lines.svg"}));
}

TEST(bench_command_line, arguments_a_shell_would_change_are_quoted) {
  const char* argv[] = {"./sluice-bench", "--scenario", "bytes,text", "--report", "my report.html",
                        "--dir",          "it's",       "",           "$HOME",    "--size=1M"};
  EXPECT_EQ(command_line(10, argv),
            "./sluice-bench --scenario bytes,text --report 'my report.html' --dir 'it'\\''s' '' "
            "'$HOME' --size=1M");
}

TEST(bench_progress, the_time_left_is_the_mean_run_times_the_runs_left) {
  EXPECT_FALSE(seconds_left(3.0, 0, 10)) << "unknown before a run is done";
  EXPECT_DOUBLE_EQ(*seconds_left(10.0, 2, 6), 20.0);
  EXPECT_DOUBLE_EQ(*seconds_left(1.5, 3, 3), 0.0);
  EXPECT_DOUBLE_EQ(*seconds_left(1.5, 4, 3), 0.0);
}

TEST(bench_progress, times_left_are_rounded_up_and_spelled_out) {
  EXPECT_EQ(duration_text(0), "0 s");
  EXPECT_EQ(duration_text(39.2), "40 s");
  EXPECT_EQ(duration_text(59.5), "1 min 00 s");
  EXPECT_EQ(duration_text(60), "1 min 00 s");
  EXPECT_EQ(duration_text(185), "3 min 05 s");
  EXPECT_EQ(duration_text(3599.5), "1 h 00 min");
  EXPECT_EQ(duration_text(3720), "1 h 02 min");
  EXPECT_EQ(duration_text(7199), "2 h 00 min");
}

TEST(bench_progress, the_line_names_the_run_the_method_and_the_time_left) {
  EXPECT_EQ(progress_text({12, 95, "bytes", "fwrite", 2, 5, 40.0}),
            "[ 12/95] bytes: fwrite, run 2 of 5, about 40 s left");
  EXPECT_EQ(progress_text({1, 95, "read", "mmap", 1, 5, std::nullopt}),
            "[  1/95] read: mmap, run 1 of 5");
}

TEST(bench_progress, a_long_method_name_is_cut_to_fit_an_80_column_terminal) {
  std::string fits(progress_width - std::string("[ 14/36] gather: , run 1 of 2").size(), 'm');
  EXPECT_EQ(progress_text({14, 36, "gather", fits, 1, 2, std::nullopt}),
            "[ 14/36] gather: " + fits + ", run 1 of 2");
  std::string cut =
      progress_text({14, 36, "gather", "fwrite_unlocked per piece, 256 KiB setvbuf", 1, 2, 3725.0});
  EXPECT_EQ(cut, "[ 14/36] gather: fwrite_unlocked per piec..., run 1 of 2, about 1 h 03 min left");
  EXPECT_EQ(cut.size(), progress_width);
}

}  // namespace
