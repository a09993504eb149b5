#include "core/options.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <limits>
#include <sluice/reader.hpp>
#include <sluice/writer.hpp>
#include <stdexcept>

#include "core/command_line.hpp"
#include "core/named_output.hpp"
#include "core/units.hpp"
#include "scenarios/scenarios.hpp"

namespace sluice::bench {
namespace {

std::vector<std::string> scenario_names() {
  std::vector<std::string> names;
  for (const scenario& s : scenarios()) names.emplace_back(s.name);
  return names;
}

// The chosen names in the report's order, each once; all when none is chosen.
// The chosen scenarios in the report's order; none chosen: the default set.
std::vector<std::string> in_report_order(const std::vector<std::string>& chosen) {
  std::vector<std::string> ordered;
  for (const scenario& s : scenarios()) {
    bool wanted = chosen.empty() ? s.by_default
                                 : std::find(chosen.begin(), chosen.end(), s.name) != chosen.end();
    if (wanted) ordered.emplace_back(s.name);
  }
  return ordered;
}

// --recommend's scenarios, with those chosen beside them (none: these alone).
std::vector<std::string> with_recommended(std::vector<std::string> chosen) {
  for (const char* name : {"journal", "tune"})
    if (std::find(chosen.begin(), chosen.end(), name) == chosen.end()) chosen.emplace_back(name);
  return chosen;
}

std::string scenarios_help() {
  std::string text = "Scenarios (default size; * not in the default set):\n";
  for (const scenario& s : scenarios())
    text += "  " + std::string(s.name) + (s.by_default ? "" : "*") + " (" +
            format_size(s.default_size) + "): " + std::string(s.summary) + "\n";
  return text;
}

// The most --buffer-size takes: every sluice writer of a run allocates its
// buffer (fragment's two writers, write_behind two buffers each), and a
// buffer larger than the biggest write a disk profits from measures nothing
// new.
constexpr std::uint64_t most_buffer = std::uint64_t{1} << 30;

// A size option: parse_size()'s bytes, at least 1 and at most `most`, left
// as a decimal number for the option's own conversion; or the message that
// says what is wrong.
CLI::Validator size_in_bytes(std::uint64_t most, std::string why_most) {
  return CLI::Validator(
      [most, why_most](std::string& text) -> std::string {
        std::uint64_t bytes = 0;
        try {
          bytes = parse_size(text);
        } catch (const std::invalid_argument& e) {
          return e.what();
        }
        if (bytes == 0) return "SIZE must be at least 1 byte";
        if (bytes > most) return "'" + text + "' is more than " + format_size(most) + why_most;
        text = std::to_string(bytes);
        return "";
      },
      "", "size in bytes");
}

void add_options(CLI::App& app, options& o) {
  app.add_option("--scenario", o.scenarios,
                 "Scenarios to run, repeatable or comma-separated "
                 "(default: all but those marked *)")
      ->delimiter(',')
      ->check(CLI::IsMember(scenario_names()));
  app.add_option("--size", o.size,
                 "Bytes each scenario writes or reads, e.g. 512K, 64M, 1G (K = 1024) "
                 "(default: each scenario's own)")
      ->option_text("SIZE")
      ->transform(size_in_bytes(std::numeric_limits<std::uint64_t>::max(), ""));
  app.add_option("--repeat", o.repeat, "Runs per method; the report gives the median")
      ->option_text("N (default 5)")
      ->check(CLI::Range(1, 1000));
  app.add_flag("--sync", o.sync, "Include a final fdatasync in every figure");
  app.add_option("--buffer-size", o.buffer_size,
                 "Buffer of the sluice writers and readers, e.g. 1M (default: sluice's own, " +
                     format_size(writer_options::default_buffer_size) + ", readers " +
                     format_size(reader_options::default_buffer_size) +
                     "), to find the best one for this disk; at most 1 GiB")
      ->option_text("SIZE")
      ->transform(size_in_bytes(most_buffer,
                                ": each sluice writer allocates it, and no disk needs writes "
                                "that large to reach its speed"));
  app.add_option("--json", o.json, "Also write the full results as JSON to FILE")
      ->option_text("FILE");
  app.add_option("--report", o.report,
                 "Also write FILE as one self-contained HTML page: a bar chart per table, "
                 "the machine, the command and the tables")
      ->option_text("FILE");
  app.add_option("--svg", o.svg_dir,
                 "Also write each table's bar chart to DIR (made if missing) as "
                 "<scenario>.svg, or <scenario>-<n>.svg for a scenario of several tables")
      ->option_text("DIR");
  app.add_option("--dir", o.dir,
                 "Directory on the disk to test; a fresh subdirectory is made there and "
                 "removed afterwards (default: $TMPDIR, else /tmp)")
      ->option_text("DIR")
      ->check(CLI::ExistingDirectory);
  app.add_flag("--recommend", o.recommend,
               "Run the journal and tune scenarios (with any --scenario given) and end with the "
               "writer_options and journal_options fastest on this disk, ready to paste");
  app.add_flag("--list", o.list, "List the scenarios and their methods, and exit");
}

}  // namespace

std::variant<options, int> parse_options(int argc, char** argv) {
  CLI::App app(
      "Measures each way of writing and of reading a file, side by side, on the disk you\n"
      "point it at: sluice and what you would use instead (stdio, iostreams, {fmt}, mmap,\n"
      "raw system calls).",
      "sluice-bench");
  app.footer(scenarios_help());
  options o;
  add_options(app, o);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    std::cerr << "sluice-bench: " << e.what() << "\nRun with --help for more information.\n";
    return 2;
  }
  if (!o.json.empty() && !o.report.empty() && same_file(o.json, o.report)) {
    std::cerr << "sluice-bench: --json and --report both name '" << o.report
              << "': the one written last would replace the other; give each its own file\n";
    return 2;
  }
  if (o.recommend) o.scenarios = with_recommended(std::move(o.scenarios));
  o.scenarios = in_report_order(o.scenarios);
  o.command = command_line(argc, argv);
  return o;
}

}  // namespace sluice::bench
