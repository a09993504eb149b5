// The standard streams on Windows: GetStdHandle's handles; standard error
// is a terminal when it is a console (GetConsoleMode succeeds on it).
#include <windows.h>

#include "common/standard_streams.hpp"

namespace sluice_tools {

sluice::file borrow_standard_input() noexcept {
  return sluice::file::borrow(::GetStdHandle(STD_INPUT_HANDLE), "standard input");
}

sluice::file borrow_standard_output() noexcept {
  return sluice::file::borrow(::GetStdHandle(STD_OUTPUT_HANDLE), "standard output");
}

bool standard_error_is_terminal() noexcept {
  DWORD mode = 0;
  return ::GetConsoleMode(::GetStdHandle(STD_ERROR_HANDLE), &mode) != 0;
}

}  // namespace sluice_tools
