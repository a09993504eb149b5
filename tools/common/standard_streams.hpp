// The process's standard streams for the tools, the same on every platform:
// standard input and output borrowed as sluice files (descriptors 0 and 1
// on POSIX, the standard HANDLEs on Windows), and whether standard error is
// a terminal (for the progress line). standard_streams.cpp (POSIX) and
// standard_streams_win32.cpp. No system call but isatty / GetConsoleMode.
#pragma once

#include <sluice/file.hpp>

namespace sluice_tools {

// Standard input, borrowed: sequential, and left open by close().
sluice::file borrow_standard_input() noexcept;
// Standard output, borrowed likewise.
sluice::file borrow_standard_output() noexcept;
// Whether standard error is a terminal (a console on Windows).
bool standard_error_is_terminal() noexcept;

}  // namespace sluice_tools
