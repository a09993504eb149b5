// sluice-bench "journal": SQLite as the journal, in WAL mode with
// synchronous = FULL (the WAL is synced at every commit). Each transaction
// is BEGIN, 100 INSERTs of one prepared statement, COMMIT. One thread:
// SQLite lets one writer in at a time.
#include <sqlite3.h>

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include "peers/journal_peers.hpp"

namespace sluice::bench {
namespace {

struct db_closer {
  void operator()(sqlite3* db) const { sqlite3_close(db); }
};
struct statement_closer {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using database = std::unique_ptr<sqlite3, db_closer>;
using statement = std::unique_ptr<sqlite3_stmt, statement_closer>;

void ok(sqlite3* db, int code, const char* what) {
  if (code != SQLITE_OK && code != SQLITE_DONE && code != SQLITE_ROW)
    throw std::runtime_error(std::string("sqlite ") + what + ": " + sqlite3_errmsg(db));
}

void exec(sqlite3* db, const char* sql) {
  ok(db, sqlite3_exec(db, sql, nullptr, nullptr, nullptr), sql);
}

database open_db(const char* dir) {
  std::filesystem::create_directories(dir);
  sqlite3* db = nullptr;
  int code = sqlite3_open((std::string(dir) + "/journal.db").c_str(), &db);
  database owner(db);
  ok(db, code, "open");
  exec(db, "PRAGMA journal_mode=WAL");
  exec(db, "PRAGMA synchronous=FULL");
  return owner;
}

statement prepare(sqlite3* db, const char* sql) {
  sqlite3_stmt* s = nullptr;
  ok(db, sqlite3_prepare_v2(db, sql, -1, &s, nullptr), sql);
  return statement(s);
}

void insert(sqlite3* db, sqlite3_stmt* s, const char* record) {
  sqlite3_reset(s);
  sqlite3_bind_text(s, 1, record, journal_key_size, SQLITE_STATIC);
  sqlite3_bind_blob(s, 2, record + journal_key_size, journal_value_size, SQLITE_STATIC);
  ok(db, sqlite3_step(s), "insert");
}

void run(const char* dir, const journal_work& work, journal_log& log) {
  database db = open_db(dir);
  exec(db.get(), "CREATE TABLE kv (k TEXT PRIMARY KEY, v BLOB) WITHOUT ROWID");
  statement s = prepare(db.get(), "INSERT INTO kv VALUES (?, ?)");
  auto commit = [&](std::size_t t) {
    char record[journal_record_size];
    exec(db.get(), "BEGIN");
    for (std::size_t r = 0; r < journal_records; ++r) {
      work.record(t, r, record);
      insert(db.get(), s.get(), record);
    }
    exec(db.get(), "COMMIT");
  };
  run_transactions(work, 1, commit, log);
  s.reset();
  ok(db.get(), sqlite3_close(db.release()), "close");
}

std::string_view column(sqlite3_stmt* s, int i) {
  auto* data = static_cast<const char*>(sqlite3_column_blob(s, i));
  return {data, static_cast<std::size_t>(sqlite3_column_bytes(s, i))};
}

void check(const char* dir, const journal_work& work) {
  database db = open_db(dir);
  statement s = prepare(db.get(), "SELECT k, v FROM kv");
  record_check records(work);
  int code;
  while ((code = sqlite3_step(s.get())) == SQLITE_ROW)
    records.add(column(s.get(), 0), column(s.get(), 1));
  ok(db.get(), code, "select");
  records.finish();
}

}  // namespace

std::vector<method> sqlite_methods(const journal_content& work) {
  return {in_group(journal_method(
                       "SQLite WAL, synchronous=FULL, 1 thread", role::peer, work,
                       [work](const char* dir, journal_log& log) { run(dir, *work, log); }, check),
                   1)};
}

}  // namespace sluice::bench
