// The standard streams on POSIX: descriptors 0, 1 and 2.
#include "common/standard_streams.hpp"

#include <unistd.h>

namespace sluice_tools {

sluice::file borrow_standard_input() noexcept {
  return sluice::file::borrow(STDIN_FILENO, "standard input");
}

sluice::file borrow_standard_output() noexcept {
  return sluice::file::borrow(STDOUT_FILENO, "standard output");
}

bool standard_error_is_terminal() noexcept { return ::isatty(STDERR_FILENO) == 1; }

}  // namespace sluice_tools
