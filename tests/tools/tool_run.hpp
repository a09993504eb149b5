// A built tool run as a child process: as it is, or with the conditions the
// path tests set up (standard input from a file, a file size limit, a time
// limit).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sluice_test {

struct tool_limits {
  std::string input = "/dev/null";  // the file standard input is read from
  std::uint64_t file_size = 0;      // RLIMIT_FSIZE in bytes (prlimit(1)); 0: none
  int seconds = 60;                 // then SIGKILL (timeout(1)): a tool that hangs fails
};

// What a run gave: its wait status (timeout(1)'s, which exits with the
// tool's status or dies of the signal the tool died of; 137 after the
// time limit) and standard error.
struct tool_result {
  int status;
  std::string err;
};

// What a run gave with its standard output kept: its wait status,
// standard output and standard error.
struct program_output {
  int status;
  std::string out;
  std::string err;
};

// Runs `program` with `args` and no limits, its standard input on
// descriptor `in` (left open), its standard output and error read to their
// ends together, so that neither pipe fills while the other is read.
program_output run_program(const std::string& program, const std::vector<std::string>& args,
                           int in);

// Runs `program` with `args` under `limits`, its standard output read and
// dropped.
tool_result run_tool(const std::string& program, const std::vector<std::string>& args,
                     const tool_limits& limits = {});

// Whether `status` is an exit with `code`, or a death by a signal.
bool exited_with(int status, int code);
bool killed(int status);

}  // namespace sluice_test
