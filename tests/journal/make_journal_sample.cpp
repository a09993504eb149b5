// make_journal_sample <dir>: writes the sample journal of
// support/journal_sample.hpp into <dir>, which must not exist. Run once on
// each platform to make tests/data/journal/<platform>/ (tests/README.md
// says how); journal_portability_test reads them.
#include <cstdio>
#include <exception>
#include <filesystem>

#include "support/journal_sample.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_journal_sample <dir>  (a directory that does not exist)\n");
    return 2;
  }
  if (std::filesystem::exists(argv[1])) {
    std::fprintf(stderr, "make_journal_sample: '%s' exists: expected a new directory\n", argv[1]);
    return 2;
  }
  try {
    sluice_test::write_journal_sample(argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "make_journal_sample: %s\n", e.what());
    return 1;
  }
  return 0;
}
