// The default error handler's output: one line on standard error, written
// straight to the OS (not through detail::sys, so that it works while a
// test has replaced the seam, nor through stdio, whose buffer a crash
// would lose). Per platform: stderr_line.cpp (POSIX), stderr_line_win32.cpp.
#pragma once

#include <string_view>

namespace sluice::detail {

// Writes `message` and a newline in one call where the OS allows, so that
// concurrent reports do not interleave. Ignores failure: there is nowhere
// left to report it to. Never throws.
void write_stderr_line(std::string_view message) noexcept;

}  // namespace sluice::detail
