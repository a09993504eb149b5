// sluice-bench "journal": which peers the table gets, by what was found at
// build time.
#include "peers/journal_peers.hpp"

namespace sluice::bench {
namespace {

[[maybe_unused]] void add(bench_case& c, std::vector<method> methods) {
  for (method& m : methods) c.methods.push_back(std::move(m));
}

}  // namespace

void add_journal_peers(bench_case& c, [[maybe_unused]] const journal_content& work) {
#ifdef SLUICE_BENCH_HAVE_ROCKSDB
  add(c, rocksdb_methods(work));
#else
  c.skipped.push_back("RocksDB: skipped, librocksdb not found at build time");
#endif
#ifdef SLUICE_BENCH_HAVE_LEVELDB
  add(c, leveldb_methods(work));
#else
  c.skipped.push_back("LevelDB: skipped, libleveldb not found at build time");
#endif
#ifdef SLUICE_BENCH_HAVE_SQLITE
  add(c, sqlite_methods(work));
#else
  c.skipped.push_back("SQLite: skipped, libsqlite3 not found at build time");
#endif
}

}  // namespace sluice::bench
