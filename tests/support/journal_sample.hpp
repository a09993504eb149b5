// A small journal written the same way on every platform, to check that its
// bytes on disk are the same everywhere: tests/data/journal/<platform>/
// holds one written on each (by make_journal_sample), and
// journal/journal_portability_test.cpp opens every one of them and writes
// a new one to compare.
#pragma once

#include <filesystem>
#include <sluice/journal.hpp>
#include <string>
#include <vector>

namespace sluice_test {

// The options of the sample: 4 KiB segments (several of them), written
// full of zeros when created, so that no byte of a segment depends on the
// filesystem.
sluice::journal_options journal_sample_options();

// The records of the sample, lsn 1 on: sizes from 0 to 297 bytes of
// pattern(), a batch of three, and one record larger than a segment.
std::vector<std::string> journal_sample_records();

// Writes the sample journal into `dir` (which must not exist or be empty)
// and closes it: each record committed on its own, but the batch, appended
// in one call. Throws what the journal throws.
void write_journal_sample(const std::filesystem::path& dir);

}  // namespace sluice_test
