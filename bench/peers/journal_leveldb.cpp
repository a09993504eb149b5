// sluice-bench "journal": LevelDB as the journal. Each transaction is one
// WriteBatch of its 100 records written with sync = true (LevelDB groups
// the writers of concurrent threads into one log write and sync).
#include <leveldb/db.h>
#include <leveldb/write_batch.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "peers/journal_peers.hpp"

namespace sluice::bench {
namespace {

void ok(const leveldb::Status& status, const char* what) {
  if (!status.ok())
    throw std::runtime_error(std::string("leveldb ") + what + ": " + status.ToString());
}

std::unique_ptr<leveldb::DB> open_db(const char* dir) {
  leveldb::Options options;
  options.create_if_missing = true;
  leveldb::DB* db = nullptr;
  ok(leveldb::DB::Open(options, dir, &db), "open");
  return std::unique_ptr<leveldb::DB>(db);
}

std::string_view view(const leveldb::Slice& s) { return {s.data(), s.size()}; }

void run(const char* dir, const journal_work& work, int threads, journal_log& log) {
  auto db = open_db(dir);
  leveldb::WriteOptions sync;
  sync.sync = true;
  auto commit = [&](std::size_t t) {
    leveldb::WriteBatch batch;
    fill_batch<leveldb::Slice>(batch, work, t);
    ok(db->Write(sync, &batch), "write");
  };
  run_transactions(work, threads, commit, log);
}

void check(const char* dir, const journal_work& work) {
  auto db = open_db(dir);
  record_check records(work);
  std::unique_ptr<leveldb::Iterator> it(db->NewIterator(leveldb::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) records.add(view(it->key()), view(it->value()));
  ok(it->status(), "read");
  it.reset();
  records.finish();
}

}  // namespace

std::vector<method> leveldb_methods(const journal_content& work) {
  return {threaded_peer("LevelDB", 1, work, run, check),
          threaded_peer("LevelDB", 16, work, run, check)};
}

}  // namespace sluice::bench
