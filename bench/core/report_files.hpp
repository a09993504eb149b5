// sluice-bench: the --report page and the --svg charts, as files. Both are
// made ready before the first run (the page's file opened, the charts'
// directory made), so that a bad path fails at once, and written once every
// case has run. Failures throw std::system_error naming the file or the
// directory.
#pragma once

#include <filesystem>
#include <optional>
#include <sluice/writer.hpp>
#include <string>
#include <vector>

#include "core/options.hpp"
#include "core/report.hpp"

namespace sluice::bench {

class report_files {
 public:
  // Opens o.report and makes o.svg_dir (with its parents), where given.
  explicit report_files(const options& o);

  // Writes the page and a chart per case; `text` is the report as printed.
  void write(const run_description& run, const std::vector<case_summary>& cases,
             const std::string& text);

 private:
  void write_charts(const std::vector<case_summary>& cases) const;

  std::string command_;
  std::string page_path_;
  std::optional<sluice::writer> page_;
  std::filesystem::path svg_dir_;
};

}  // namespace sluice::bench
