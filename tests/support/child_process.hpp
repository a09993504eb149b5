// Running a built program (a tool of the repository) as a child process,
// with its standard descriptors where a test wants them.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace sluice_test {

// Starts `program` with `args` as argv[1...], its standard input, output and
// error on `in`, `out` and `err` (duplicated there; the caller keeps its
// own); returns its pid. Throws std::system_error if it cannot start.
pid_t spawn(const std::string& program, const std::vector<std::string>& args, int in, int out,
            int err);

// Waits for `child` to end; returns its wait status (WIFEXITED...).
int wait_for(pid_t child);

}  // namespace sluice_test
