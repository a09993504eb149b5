/* The C journal under faults injected through the seam: a failed sync or
   write poisons it (later calls return the failure, close too), and EINTR
   and short writes do not show. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "c_check.h"
#include "c_support.h"
#include "c_tests.h"
#include "support/c_fake_sys.h"

/* Every later call of `j` returns `error`: the writing ones refused naming
   the journal and `failure` (the first message), close with `failure`
   itself. None reaches the OS. */
static int expect_poisoned(sluice_journal* j, const char* dir, int error, const char* failure) {
  int writes = c_fake_calls(C_FAKE_WRITE_AT);
  int syncs = c_fake_calls(C_FAKE_SYNC_DATA);
  char refused[2400];
  snprintf(refused, sizeof refused,
           "sluice: append to journal '%s' refused after an earlier failure: %s", dir,
           failure + strlen("sluice: "));
  uint64_t lsn = 0;
  CHECK_RC(sluice_journal_append(j, "more", 4, &lsn), error);
  CHECK_ERROR(refused);
  sluice_bytes batch[] = {{"a", 1}, {"b", 1}};
  CHECK_RC(sluice_journal_append_many(j, batch, 2, &lsn), error);
  CHECK_RC(sluice_journal_write(j, "more", 4, &lsn), error);
  CHECK_RC(sluice_journal_commit(j, 1), error);
  sluice_journal_cursor* cursor = NULL;
  CHECK_RC(sluice_journal_read_from(j, 1, &cursor), error);
  CHECK_RC(sluice_journal_truncate_before(j, 1), error);
  CHECK_INT(c_fake_calls(C_FAKE_WRITE_AT), writes);
  CHECK_INT(c_fake_calls(C_FAKE_SYNC_DATA), syncs);
  CHECK_RC(sluice_journal_close(j), error);
  CHECK_ERROR(failure);
  return 0;
}

/* The journal reopened holds exactly the records "one".."<count>" wrote. */
static int holds_records(const char* path, uint64_t count) {
  sluice_journal* j = NULL;
  CHECK_OK(sluice_journal_open(&j, path, NULL));
  sluice_journal_cursor* cursor = NULL;
  CHECK_OK(sluice_journal_read_from(j, 1, &cursor));
  uint64_t lsn = 0;
  const void* data = NULL;
  size_t size = 0;
  char expected[64];
  for (uint64_t i = 1; i <= count; ++i) {
    CHECK_OK(sluice_journal_cursor_next(cursor, &lsn, &data, &size));
    CHECK_U64(lsn, i);
    snprintf(expected, sizeof expected, "record %llu", (unsigned long long)i);
    CHECK_BYTES(data, size, expected);
  }
  CHECK_RC(sluice_journal_cursor_next(cursor, &lsn, &data, &size), SLUICE_EOF);
  sluice_journal_cursor_close(cursor);
  CHECK_OK(sluice_journal_close(j));
  return 0;
}

/* Writes "record <i>" for i = first..last, each committed. */
static int write_records(sluice_journal* j, uint64_t first, uint64_t last) {
  char text[64];
  for (uint64_t i = first; i <= last; ++i) {
    int size = snprintf(text, sizeof text, "record %llu", (unsigned long long)i);
    uint64_t lsn = 0;
    CHECK_OK(sluice_journal_write(j, text, (size_t)size, &lsn));
    CHECK_U64(lsn, i);
  }
  return 0;
}

/* Makes the next call of `which` fail with `error` while a record is
   written, which returns `error`; its message, kept in failure[0, size),
   is "sluice: <operation> '<dir>/<a segment>'...: <strerror(error)>". */
static int poison(sluice_journal* j, c_fake_call which, int error, const char* operation,
                  const char* dir, char* failure, size_t size) {
  c_fake_fail(which, c_fake_calls(which) + 1, error);
  CHECK_RC(sluice_journal_write(j, "the record that fails", 21, NULL), error);
  snprintf(failure, size, "%s", sluice_last_error());
  char prefix[1200];
  snprintf(prefix, sizeof prefix, "sluice: %s '%s/", operation, dir);
  CHECK(strncmp(failure, prefix, strlen(prefix)) == 0);
  const char* reason = strrchr(failure, ':');
  CHECK(reason != NULL && strcmp(reason + 2, strerror(error)) == 0);
  return 0;
}

int c_journal_fault_failed_sync_poisons(const char* dir) {
  c_path path = c_path_in(dir, "log");
  sluice_journal* j = NULL;
  CHECK_OK(c_fake_install());
  CHECK_OK(sluice_journal_open(&j, path.text, NULL));
  if (write_records(j, 1, 3) != 0) return 1;
  char failure[1200];
  if (poison(j, C_FAKE_SYNC_DATA, EIO, "fdatasync", path.text, failure, sizeof failure) != 0)
    return 1;
  if (expect_poisoned(j, path.text, EIO, failure) != 0) return 1;
  c_fake_remove();
  /* What was committed before is all there (the failed record may be too: it was written). */
  sluice_journal* again = NULL;
  CHECK_OK(sluice_journal_open(&again, path.text, NULL));
  uint64_t next = 0;
  CHECK_OK(sluice_journal_next_lsn(again, &next));
  CHECK(next == 4 || next == 5);
  CHECK_OK(sluice_journal_close(again));
  return 0;
}

int c_journal_fault_enospc_on_write_poisons(const char* dir) {
  c_path path = c_path_in(dir, "log");
  sluice_journal* j = NULL;
  CHECK_OK(c_fake_install());
  CHECK_OK(sluice_journal_open(&j, path.text, NULL));
  if (write_records(j, 1, 1) != 0) return 1;
  char failure[1200];
  if (poison(j, C_FAKE_WRITE_AT, ENOSPC, "write", path.text, failure, sizeof failure) != 0)
    return 1;
  CHECK(strstr(failure, "' at offset ") != NULL);
  if (expect_poisoned(j, path.text, ENOSPC, failure) != 0) return 1;
  c_fake_remove();
  return holds_records(path.text, 1);
}

/* EINTR on every write, then short writes: every record committed whole. */
int c_journal_fault_eintr_and_short_writes_do_not_show(const char* dir) {
  c_path path = c_path_in(dir, "log");
  sluice_journal* j = NULL;
  CHECK_OK(c_fake_install());
  CHECK_OK(sluice_journal_open(&j, path.text, NULL));
  c_fake_interrupt_every_write();
  if (write_records(j, 1, 20) != 0) return 1;
  CHECK(c_fake_calls(C_FAKE_WRITE_AT) >= 40); /* each one interrupted once */
  CHECK_OK(sluice_journal_close(j));
  c_fake_remove();

  CHECK_OK(c_fake_install());
  CHECK_OK(sluice_journal_open(&j, path.text, NULL));
  int writes = c_fake_calls(C_FAKE_WRITE_AT);
  for (int i = 1; i <= 20; ++i)
    c_fake_short_transfer(C_FAKE_WRITE_AT, writes + 2 * i, (size_t)i % 5);
  if (write_records(j, 21, 40) != 0) return 1;
  CHECK(c_fake_calls(C_FAKE_WRITE_AT) >= writes + 30);
  CHECK_OK(sluice_journal_close(j));
  c_fake_remove();
  return holds_records(path.text, 40);
}
