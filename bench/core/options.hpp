// sluice-bench: the command line (CLI11).
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace sluice::bench {

struct options {
  std::vector<std::string> scenarios;  // in the report's order, no repeats
  std::uint64_t size = 0;              // bytes a scenario writes or reads; 0: its default
  int repeat = 5;                      // runs per method; the report gives the median
  bool sync = false;                   // figures include the final fdatasync
  std::size_t buffer_size = 0;         // sluice writers' buffer; 0: sluice's default
  std::string json;                    // JSON report path; empty: none
  std::string report;                  // HTML report path; empty: none
  std::string svg_dir;                 // directory for a chart per case; empty: none
  std::string command;                 // the command line, as command_line() quotes it
  std::string dir;                     // where the work directory goes; empty: $TMPDIR or /tmp
  bool recommend = false;              // add journal and tune; scenarios holds them then
  bool list = false;                   // list scenarios and methods, run nothing
};

// The options, or the exit status when there is nothing to run: 0 after
// --help, 2 after a usage error (its message is printed on stderr).
std::variant<options, int> parse_options(int argc, char** argv);

}  // namespace sluice::bench
