// sluice-bench "journal": the peers a user would pick instead of
// sluice::journal, each built in when its library was found at build time
// (else the table notes it as skipped): RocksDB and LevelDB (a WriteBatch of
// the 100 records per transaction, written with sync = true) at 1 and 16
// threads, SQLite (WAL, synchronous = FULL, one SQL transaction each) at 1.
#pragma once

#include <vector>

#include "core/bench_case.hpp"
#include "scenarios/journal_load.hpp"

namespace sluice::bench {

// Appends the peers built in to c.methods, a note per missing one to c.skipped.
void add_journal_peers(bench_case& c, const journal_content& work);

std::vector<method> rocksdb_methods(const journal_content& work);
std::vector<method> leveldb_methods(const journal_content& work);
std::vector<method> sqlite_methods(const journal_content& work);

}  // namespace sluice::bench
