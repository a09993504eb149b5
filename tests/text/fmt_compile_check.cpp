// Compiled (not run) by the fmt_format_string_* tests: sluice::print's format
// string is checked at compile time, so SLUICE_BAD_FORMAT must not compile.
#include <sluice/fmt.hpp>

void print_one(sluice::writer& out) {
#ifdef SLUICE_BAD_FORMAT
  sluice::print(out, "{:d}", "text is not a number");
#else
  sluice::print(out, "{:d}", 42);
#endif
}
