// sluice-bench: the command line as typed, for the report to show.
#pragma once

#include <string>

namespace sluice::bench {

// argv[0..argc) joined by spaces, each argument that a POSIX shell would
// split or expand put in single quotes ("it's" as 'it'\''s'), so that
// pasting the text into a shell runs the same command. Empty arguments
// are ''.
std::string command_line(int argc, const char* const* argv);

}  // namespace sluice::bench
