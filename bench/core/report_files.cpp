#include "core/report_files.hpp"

#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>

#include "core/chart.hpp"
#include "core/html_report.hpp"
#include "core/named_output.hpp"
#include "core/svg_chart.hpp"

namespace sluice::bench {
namespace {

// A std::system_error whose what() is the text given, the cause's own
// (which names its errno) after what failed.
class named_error : public std::system_error {
 public:
  named_error(const std::string& what, const std::system_error& cause)
      : std::system_error(cause.code()), text_(what + ": " + cause.what()) {}
  const char* what() const noexcept override { return text_.c_str(); }

 private:
  std::string text_;
};

// Runs `body`; a std::system_error it throws is thrown again as `what`'s,
// with its error code and its text: "cannot write the JSON report 'x':
// sluice: open 'x': cannot open the directory 'd': No such file or directory".
template <class Body>
void naming(const std::string& what, Body&& body) {
  try {
    body();
  } catch (const std::system_error& e) {
    throw named_error(what, e);
  }
}

std::string json_report(const std::string& path) {
  return "cannot write the JSON report '" + path + "'";
}
std::string html_report(const std::string& path) {
  return "cannot write the HTML report '" + path + "'";
}

// The chart file of each case in `dir`.
std::vector<std::filesystem::path> chart_paths(const std::filesystem::path& dir,
                                               const std::vector<bench_case>& cases) {
  std::vector<std::string> scenario_of_case;
  for (const bench_case& c : cases) scenario_of_case.push_back(c.scenario);
  std::vector<std::filesystem::path> paths;
  for (const std::string& name : chart_file_names(scenario_of_case)) paths.push_back(dir / name);
  return paths;
}

// Refuses a report (--json or --report: `option`) at `path` that is also
// one of the charts: the one written last would replace the other.
void check_not_a_chart(const char* option, const std::string& path,
                       const std::vector<std::filesystem::path>& charts) {
  if (path.empty()) return;
  for (const std::filesystem::path& chart : charts)
    if (same_file(path, chart.string()))
      throw std::invalid_argument(std::string(option) + " '" + path + "' is also the chart '" +
                                  chart.string() +
                                  "' that --svg writes: give the report another name");
}

}  // namespace

report_files::report_files(const options& o, const std::vector<bench_case>& cases)
    : command_(o.command), json_path_(o.json), page_path_(o.report), svg_dir_(o.svg_dir) {
  if (!svg_dir_.empty()) charts_ = chart_paths(svg_dir_, cases);
  check_not_a_chart("--json", json_path_, charts_);
  check_not_a_chart("--report", page_path_, charts_);
  if (!json_path_.empty())
    naming(json_report(json_path_), [&] { json_.emplace(open_named_output(json_path_)); });
  if (!page_path_.empty())
    naming(html_report(page_path_), [&] { page_.emplace(open_named_output(page_path_)); });
  if (!svg_dir_.empty())
    naming("cannot make the charts' directory '" + svg_dir_.string() + "'", [&] {
      check_chart_directory(svg_dir_);
      std::filesystem::create_directories(svg_dir_);
    });
}

void report_files::write(const run_description& run, const std::vector<case_summary>& cases,
                         const std::string& text) {
  write_json_report(run, cases);
  if (page_) {
    naming(html_report(page_path_), [&] {
      write_html_report(*page_, {run, cases, command_, text});
      page_->close();
    });
  }
  write_charts(cases);
}

void report_files::write_json_report(const run_description& run,
                                     const std::vector<case_summary>& cases) {
  if (!json_) return;
  std::ostringstream text;
  write_json(text, run, cases);
  naming(json_report(json_path_), [&] {
    json_->write(std::move(text).str());
    json_->close();
  });
}

void report_files::write_charts(const std::vector<case_summary>& cases) const {
  for (std::size_t i = 0; i < charts_.size() && i < cases.size(); ++i) {
    const std::filesystem::path& path = charts_[i];
    naming("cannot write the chart '" + path.string() + "'", [&] {
      sluice::writer out = open_named_output(path.string());
      write_svg_chart(out, chart_of(cases[i]), not_run_rows::listed);
      out.close();
    });
  }
}

}  // namespace sluice::bench
