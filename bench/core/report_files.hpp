// sluice-bench: the --json report, the --report page and the --svg charts,
// as files. All are made ready before the first run (the JSON report's and
// the page's files opened, the charts' directory checked and made), so that
// a bad path fails at once, and written once every case has run. Each file
// is opened with open_named_output (named_output.hpp): an existing file
// keeps its old content, and its mode, until its new content is complete,
// and a run that fails or is stopped leaves it as it was. Failures throw
// std::system_error naming the file or the directory.
#pragma once

#include <filesystem>
#include <optional>
#include <sluice/writer.hpp>
#include <string>
#include <vector>

#include "core/bench_case.hpp"
#include "core/options.hpp"
#include "core/report.hpp"

namespace sluice::bench {

class report_files {
 public:
  // Opens o.json and o.report and makes o.svg_dir (with its parents),
  // where given; a --svg DIR that is another user's planted link is
  // refused, and so is a report that is also a chart (the charts of
  // `cases`, in their order), with std::invalid_argument, before anything
  // is opened.
  report_files(const options& o, const std::vector<bench_case>& cases);

  // Writes the JSON report, the page and a chart per case (the cases given
  // to the constructor, in order); `text` is the report as printed.
  void write(const run_description& run, const std::vector<case_summary>& cases,
             const std::string& text);

 private:
  void write_json_report(const run_description& run, const std::vector<case_summary>& cases);
  void write_charts(const std::vector<case_summary>& cases) const;

  std::string command_;
  std::string json_path_;
  std::optional<sluice::writer> json_;
  std::string page_path_;
  std::optional<sluice::writer> page_;
  std::filesystem::path svg_dir_;
  std::vector<std::filesystem::path> charts_;  // svg_dir_'s file per case
};

}  // namespace sluice::bench
