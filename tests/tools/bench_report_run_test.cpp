// sluice-bench's reports from a tiny real run: --report writes one page
// with a chart per case, --svg a file per case, and the --json report
// conforms to docs/sluice-bench.schema.json (checked with
// json_schema_check, which needs no interpreter), whose check fails when a
// required field is missing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench_process.hpp"
#include "json_schema_check.hpp"
#include "support/test_support.hpp"

#ifdef SLUICE_BENCH
namespace {

using namespace sluice_test;
namespace fs = std::filesystem;
using json = nlohmann::json;

json read_json(const fs::path& path) { return json::parse(read_all(path)); }

// The problems of `report` against the schema, one per line.
std::string problems_of(const json& report) {
  std::string text;
  for (const std::string& p : schema_problems(read_json(SLUICE_BENCH_SCHEMA), report))
    text += p + "\n";
  return text;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// One tiny run of a writing and a reading scenario (two cases), shared by
// the tests below.
class tiny_run : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir = new temp_dir;
    run = new bench_run(
        run_bench({"--dir", dir->path().native(), "--scenario", "bytes,read", "--size", "256K",
                   "--repeat", "2", "--json", (*dir / "report.json").native(), "--report",
                   (*dir / "report.html").native(), "--svg", (*dir / "charts").native()}));
  }
  static void TearDownTestSuite() {
    delete run;
    delete dir;
  }
  void SetUp() override {
    ASSERT_TRUE(exited_with(run->status, 0)) << run->status << ": " << run->err;
  }

  static temp_dir* dir;
  static bench_run* run;
};
temp_dir* tiny_run::dir = nullptr;
bench_run* tiny_run::run = nullptr;

TEST_F(tiny_run, the_page_has_a_chart_per_case_with_its_title) {
  json report = read_json(*dir / "report.json");
  std::string page = read_all(*dir / "report.html");
  ASSERT_EQ(report["cases"].size(), 3u);  // bytes; read cached and cold
  EXPECT_EQ(count(page, "<svg "), 3u);
  for (const json& c : report["cases"])
    EXPECT_NE(page.find("<title>" + c["title"].get<std::string>() + "</title>"), std::string::npos)
        << c["title"];
  EXPECT_NE(page.find("--scenario bytes,read --size 256K --repeat 2"), std::string::npos);
  EXPECT_NE(page.find("<pre class=\"tables\">sluice-bench  dir="), std::string::npos);
  EXPECT_NE(page.find("sluice writer::put"), std::string::npos);
}

TEST_F(tiny_run, svg_writes_a_chart_per_case_named_after_its_scenario) {
  EXPECT_EQ(entries(*dir / "charts"),
            (std::vector<std::string>{"bytes.svg", "read-1.svg", "read-2.svg"}));
  std::string bytes = read_all(*dir / "charts" / "bytes.svg");
  EXPECT_EQ(bytes.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\"", 0), 0u);
  EXPECT_NE(bytes.find("class=\"bar sluice\""), std::string::npos);
  EXPECT_NE(bytes.find("<line class=\"limit\""), std::string::npos);
}

TEST_F(tiny_run, the_json_report_conforms_to_its_schema) {
  json report = read_json(*dir / "report.json");
  EXPECT_EQ(report["schema_version"], 1);
  EXPECT_EQ(problems_of(report), "");
}

TEST_F(tiny_run, the_schema_check_finds_a_missing_or_mistyped_field) {
  json report = read_json(*dir / "report.json");
  json without_version = report;
  without_version.erase("schema_version");
  EXPECT_EQ(problems_of(without_version), "$: has no 'schema_version'\n");
  json without_role = report;
  without_role["cases"][0]["methods"][1].erase("role");
  EXPECT_EQ(problems_of(without_role), "$.cases[0].methods[1]: has no 'role'\n");
  json mistyped = report;
  mistyped["cases"][1]["input"]["cache"] = "lukewarm";
  mistyped["mb"] = "1e6";
  EXPECT_EQ(problems_of(mistyped),
            "$.cases[1].input.cache: expected one of [\"cached\",\"cold\"], found \"lukewarm\"\n"
            "$.mb: expected \"integer\", found string \"1e6\"\n");
  json undocumented = report;
  undocumented["machine"]["colour"] = "blue";
  EXPECT_EQ(problems_of(undocumented), "$.machine: has 'colour', which the schema does not list\n");
}

TEST(bench_report_files, a_page_that_cannot_be_written_fails_the_run_at_once) {
  temp_dir dir;
  bench_run run = run_bench({"--dir", dir.path().native(), "--scenario", "bytes", "--size", "64K",
                             "--report", (dir / "missing" / "report.html").native()});
  EXPECT_TRUE(exited_with(run.status, 1)) << run.status;
  EXPECT_NE(run.err.find("sluice-bench: cannot write the HTML report '" +
                         (dir / "missing" / "report.html").native() + "': "),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("No such file or directory"), std::string::npos) << run.err;
}

}  // namespace
#endif
