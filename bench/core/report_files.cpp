#include "core/report_files.hpp"

#include <system_error>

#include "core/chart.hpp"
#include "core/html_report.hpp"
#include "core/svg_chart.hpp"

namespace sluice::bench {
namespace {

// Runs `body`; a std::system_error it throws is thrown again as `what`'s,
// with its error code: "cannot write ... 'x': No such file or directory".
template <class Body>
void naming(const std::string& what, Body&& body) {
  try {
    body();
  } catch (const std::system_error& e) {
    throw std::system_error(e.code(), what);
  }
}

}  // namespace

report_files::report_files(const options& o)
    : command_(o.command), page_path_(o.report), svg_dir_(o.svg_dir) {
  if (!page_path_.empty())
    naming("cannot write the HTML report '" + page_path_ + "'", [&] { page_.emplace(page_path_); });
  if (!svg_dir_.empty())
    naming("cannot make the charts' directory '" + svg_dir_.string() + "'",
           [&] { std::filesystem::create_directories(svg_dir_); });
}

void report_files::write(const run_description& run, const std::vector<case_summary>& cases,
                         const std::string& text) {
  if (page_) {
    naming("cannot write the HTML report '" + page_path_ + "'", [&] {
      write_html_report(*page_, {run, cases, command_, text});
      page_->close();
    });
  }
  write_charts(cases);
}

void report_files::write_charts(const std::vector<case_summary>& cases) const {
  if (svg_dir_.empty()) return;
  std::vector<std::string> scenario_of_case;
  for (const case_summary& summary : cases) scenario_of_case.push_back(summary.bench->scenario);
  std::vector<std::string> names = chart_file_names(scenario_of_case);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    std::filesystem::path path = svg_dir_ / names[i];
    naming("cannot write the chart '" + path.string() + "'", [&] {
      sluice::writer out(path);
      write_svg_chart(out, chart_of(cases[i]), not_run_rows::listed);
      out.close();
    });
  }
}

}  // namespace sluice::bench
