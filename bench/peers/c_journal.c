/* sluice-bench "journal" from C: sluice's C API journal, each transaction
   one batch of records and a commit, as the C++ rows do it. */
#include "peers/c_rows.h"

int c_rows_journal_transaction(sluice_journal* journal, const char* records, size_t record_size) {
  sluice_bytes batch[C_ROWS_JOURNAL_RECORDS];
  for (size_t r = 0; r < C_ROWS_JOURNAL_RECORDS; ++r) {
    batch[r].data = records + r * record_size;
    batch[r].size = record_size;
  }
  uint64_t last;
  int error = sluice_journal_append_many(journal, batch, C_ROWS_JOURNAL_RECORDS, &last);
  if (error != 0) return error;
  return sluice_journal_commit(journal, last);
}
