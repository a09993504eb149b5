// sluice-bench "journal": RocksDB as the journal. Each transaction is one
// WriteBatch of its 100 records written with sync = true (RocksDB groups the
// writers of concurrent threads into one WAL write and sync).
#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "peers/journal_peers.hpp"

namespace sluice::bench {
namespace {

void ok(const rocksdb::Status& status, const char* what) {
  if (!status.ok())
    throw std::runtime_error(std::string("rocksdb ") + what + ": " + status.ToString());
}

std::unique_ptr<rocksdb::DB> open_db(const char* dir) {
  rocksdb::Options options;
  options.create_if_missing = true;
  rocksdb::DB* db = nullptr;
  ok(rocksdb::DB::Open(options, dir, &db), "open");
  return std::unique_ptr<rocksdb::DB>(db);
}

void run(const char* dir, const journal_work& work, int threads, journal_log& log) {
  auto db = open_db(dir);
  rocksdb::WriteOptions sync;
  sync.sync = true;
  auto commit = [&](std::size_t t) {
    rocksdb::WriteBatch batch;
    fill_batch<rocksdb::Slice>(batch, work, t);
    ok(db->Write(sync, &batch), "write");
  };
  run_transactions(work, threads, commit, log);
  ok(db->Close(), "close");
}

void check(const char* dir, const journal_work& work) {
  auto db = open_db(dir);
  record_check records(work);
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next())
    records.add(it->key().ToStringView(), it->value().ToStringView());
  ok(it->status(), "read");
  it.reset();
  records.finish();
  ok(db->Close(), "close");
}

}  // namespace

std::vector<method> rocksdb_methods(const journal_content& work) {
  return {threaded_peer("RocksDB", 1, work, run, check),
          threaded_peer("RocksDB", 16, work, run, check)};
}

}  // namespace sluice::bench
