/* The C journal: appends, commits, cursors, truncation, options, one writer. */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_check.h"
#include "c_support.h"
#include "c_tests.h"

/* The next record of `cursor` is `expected_lsn` with the bytes `expected`. */
#define CHECK_RECORD(cursor, expected_lsn, expected)                     \
  do {                                                                   \
    uint64_t lsn_ = 0;                                                   \
    const void* data_ = NULL;                                            \
    size_t size_ = 0;                                                    \
    CHECK_OK(sluice_journal_cursor_next(cursor, &lsn_, &data_, &size_)); \
    CHECK_U64(lsn_, expected_lsn);                                       \
    CHECK_BYTES(data_, size_, expected);                                 \
  } while (0)

/* The cursor has no record left, and says so again when asked again. */
#define CHECK_CURSOR_END(cursor)                                                     \
  do {                                                                               \
    uint64_t lsn_ = 0;                                                               \
    const void* data_ = NULL;                                                        \
    size_t size_ = 0;                                                                \
    CHECK_RC(sluice_journal_cursor_next(cursor, &lsn_, &data_, &size_), SLUICE_EOF); \
    CHECK_RC(sluice_journal_cursor_next(cursor, &lsn_, &data_, &size_), SLUICE_EOF); \
  } while (0)

/* The text of record `lsn` in the tests that write many: 100 bytes. */
static const char* record_text(uint64_t lsn, char* out, size_t size) {
  snprintf(out, size, "record %-93llu", (unsigned long long)lsn);
  return out;
}

int c_journal_appends_commits_and_reads_back(const char* dir) {
  c_path path = c_path_in(dir, "log");
  sluice_journal* j = NULL;
  CHECK_OK(sluice_journal_open(&j, path.text, NULL));
  CHECK(j != NULL);
  uint64_t lsn = 0;
  CHECK_OK(sluice_journal_first_lsn(j, &lsn));
  CHECK_U64(lsn, 1);
  CHECK_OK(sluice_journal_next_lsn(j, &lsn));
  CHECK_U64(lsn, 1);
  CHECK_OK(sluice_journal_write(j, "one", 3, &lsn));
  CHECK_U64(lsn, 1);
  CHECK_OK(sluice_journal_append(j, "two", 3, &lsn));
  CHECK_U64(lsn, 2);
  sluice_bytes batch[] = {{"three", 5}, {"", 0}, {"five", 4}};
  CHECK_OK(sluice_journal_append_many(j, batch, 3, &lsn));
  CHECK_U64(lsn, 5);
  CHECK_OK(sluice_journal_append(j, "six", 3, NULL)); /* lsn not wanted */
  CHECK_OK(sluice_journal_next_lsn(j, &lsn));
  CHECK_U64(lsn, 7);
  CHECK_RC(sluice_journal_commit(j, 7), EINVAL); /* not appended yet */
  CHECK_OK(sluice_journal_commit(j, 5));

  /* A cursor sees what is durable when it is made: up to 5 (or 6, if the
     commit's sync took it along). */
  sluice_journal_cursor* cursor = NULL;
  CHECK_OK(sluice_journal_read_from(j, 1, &cursor));
  CHECK_RECORD(cursor, 1, "one");
  CHECK_RECORD(cursor, 2, "two");
  CHECK_RECORD(cursor, 3, "three");
  CHECK_RECORD(cursor, 4, "");
  CHECK_RECORD(cursor, 5, "five");
  sluice_journal_cursor_close(cursor);
  sluice_journal_cursor_close(NULL);

  CHECK_OK(sluice_journal_commit(j, 6));
  CHECK_OK(sluice_journal_read_from(j, 5, &cursor));
  CHECK_RECORD(cursor, 5, "five");
  CHECK_RECORD(cursor, 6, "six");
  CHECK_CURSOR_END(cursor);
  sluice_journal_cursor_close(cursor);
  CHECK_OK(sluice_journal_append(j, "seven, committed by close", 25, &lsn));
  CHECK_OK(sluice_journal_close(j));

  CHECK_OK(sluice_journal_open(&j, path.text, NULL));
  CHECK_OK(sluice_journal_next_lsn(j, &lsn));
  CHECK_U64(lsn, 8);
  CHECK_OK(sluice_journal_read_from(j, 6, &cursor));
  CHECK_RECORD(cursor, 6, "six");
  CHECK_RECORD(cursor, 7, "seven, committed by close");
  CHECK_CURSOR_END(cursor);
  sluice_journal_cursor_close(cursor);
  CHECK_OK(sluice_journal_close(j));
  return 0;
}

/* Writes records 1..count of record_text() into `j`, committing each. */
static int write_records(sluice_journal* j, uint64_t count) {
  char text[128];
  for (uint64_t lsn = 1; lsn <= count; ++lsn) {
    uint64_t got = 0;
    CHECK_OK(sluice_journal_write(j, record_text(lsn, text, sizeof text), 100, &got));
    CHECK_U64(got, lsn);
  }
  return 0;
}

/* Whether `dir` holds a file whose name ends with `suffix`. */
static int holds_file_ending(const char* dir, const char* suffix) {
  DIR* listing = opendir(dir);
  if (listing == NULL) return 0;
  int found = 0;
  for (struct dirent* entry; (entry = readdir(listing)) != NULL;) {
    size_t length = strlen(entry->d_name);
    if (length >= strlen(suffix) && strcmp(entry->d_name + length - strlen(suffix), suffix) == 0)
      found = 1;
  }
  closedir(listing);
  return found;
}

/* Small segments, then truncate_before: the oldest lsn kept moves on, a
   cursor from before it is refused, one from it reads on; with
   reuse_segments a dropped segment stays as the spare. */
int c_journal_truncate_before_drops_old_segments(const char* dir) {
  c_path path = c_path_in(dir, "log");
  sluice_journal_options options;
  sluice_journal_options_init(&options);
  CHECK_U64(options.size, sizeof options);
  options.segment_size = 4096;
  options.reuse_segments = 1;
  sluice_journal* j = NULL;
  CHECK_OK(sluice_journal_open(&j, path.text, &options));
  if (write_records(j, 200) != 0) return 1;
  CHECK_OK(sluice_journal_truncate_before(j, 150));
  uint64_t first = 0;
  CHECK_OK(sluice_journal_first_lsn(j, &first));
  CHECK(first > 1 && first <= 150);
  CHECK(holds_file_ending(path.text, ".spare"));
  sluice_journal_cursor* cursor = (sluice_journal_cursor*)&path;
  CHECK_RC(sluice_journal_read_from(j, first - 1, &cursor), ERANGE);
  CHECK(cursor == NULL);
  CHECK_OK(sluice_journal_read_from(j, first, &cursor));
  char text[128];
  for (uint64_t lsn = first; lsn <= 200; ++lsn)
    CHECK_RECORD(cursor, lsn, record_text(lsn, text, sizeof text));
  CHECK_CURSOR_END(cursor);
  sluice_journal_cursor_close(cursor);
  CHECK_OK(sluice_journal_close(j));
  return 0;
}

/* The options a journal opens with: each honoured, each bad value refused. */
int c_journal_options_are_honoured_and_checked(const char* dir) {
  c_path path = c_path_in(dir, "log");
  sluice_journal_options options;
  sluice_journal_options_init(&options);
  options.segment_size = 8192;
  options.zero_fill = 1;
  options.concurrent_syncs = 2;
  options.recovery = SLUICE_RECOVERY_ABSOLUTE_CONSISTENCY;
  sluice_journal* j = NULL;
  CHECK_OK(sluice_journal_open(&j, path.text, &options));
  if (write_records(j, 100) != 0) return 1;
  CHECK_OK(sluice_journal_close(j));

  options.recovery = SLUICE_RECOVERY_SALVAGE;
  options.read_only = 1;
  CHECK_OK(sluice_journal_open(&j, path.text, &options));
  uint64_t lsn = 0;
  CHECK_RC(sluice_journal_append(j, "x", 1, &lsn), EBADF);
  CHECK_RC(sluice_journal_write(j, "x", 1, &lsn), EBADF);
  sluice_journal_cursor* cursor = NULL;
  CHECK_OK(sluice_journal_read_from(j, 1, &cursor));
  char text[128];
  for (uint64_t expected = 1; expected <= 100; ++expected)
    CHECK_RECORD(cursor, expected, record_text(expected, text, sizeof text));
  CHECK_CURSOR_END(cursor);
  sluice_journal_cursor_close(cursor);
  CHECK_OK(sluice_journal_close(j));

  sluice_journal_options bad;
  sluice_journal_options_init(&bad);
  bad.segment_size = 100;
  j = (sluice_journal*)&path;
  CHECK_RC(sluice_journal_open(&j, path.text, &bad), EINVAL);
  CHECK(j == NULL);
  sluice_journal_options_init(&bad);
  bad.concurrent_syncs = 3;
  CHECK_RC(sluice_journal_open(&j, path.text, &bad), EINVAL);
  sluice_journal_options_init(&bad);
  bad.recovery = 3;
  CHECK_RC(sluice_journal_open(&j, path.text, &bad), EINVAL);
  return 0;
}

/* A second writer is refused at once, naming the directory; the first
   writes on, and once it has closed the directory is free again. */
int c_journal_a_second_writer_is_refused(const char* dir) {
  c_path path = c_path_in(dir, "log");
  sluice_journal* first = NULL;
  CHECK_OK(sluice_journal_open(&first, path.text, NULL));
  sluice_journal* second = (sluice_journal*)&path;
  CHECK_RC(sluice_journal_open(&second, path.text, NULL), EWOULDBLOCK);
  CHECK(second == NULL);
  char prefix[1200];
  snprintf(prefix, sizeof prefix, "sluice: open journal '%s'", path.text);
  CHECK(strncmp(sluice_last_error(), prefix, strlen(prefix)) == 0);
  CHECK_OK(sluice_journal_write(first, "still mine", 10, NULL));
  CHECK_OK(sluice_journal_close(first));
  CHECK_OK(sluice_journal_open(&second, path.text, NULL));
  CHECK_OK(sluice_journal_close(second));
  return 0;
}

/* Batches of every size around what append_many keeps without allocating
   (256), and an empty one: consecutive lsns, each record read back. */
int c_journal_append_many_takes_batches_of_every_size(const char* dir) {
  static const size_t counts[] = {0, 1, 255, 256, 257, 1000};
  enum { most = 1000 };
  static char texts[most][16];
  static sluice_bytes batch[most];
  c_path path = c_path_in(dir, "log");
  sluice_journal* j = NULL;
  CHECK_OK(sluice_journal_open(&j, path.text, NULL));
  uint64_t first = 1;
  for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
    for (size_t i = 0; i < counts[c]; ++i) {
      int size = snprintf(texts[i], sizeof texts[i], "%zu.%zu", c, i);
      batch[i].data = texts[i];
      batch[i].size = (size_t)size;
    }
    uint64_t last = 0;
    CHECK_OK(sluice_journal_append_many(j, counts[c] == 0 ? NULL : batch, counts[c], &last));
    CHECK_U64(last, first + counts[c] - 1); /* first - 1 for an empty batch */
    CHECK_OK(sluice_journal_commit(j, last));
    sluice_journal_cursor* cursor = NULL;
    CHECK_OK(sluice_journal_read_from(j, first, &cursor));
    for (size_t i = 0; i < counts[c]; ++i) CHECK_RECORD(cursor, first + i, texts[i]);
    CHECK_CURSOR_END(cursor);
    sluice_journal_cursor_close(cursor);
    first += counts[c];
  }
  CHECK_OK(sluice_journal_close(j));
  return 0;
}

/* A record over 64 MiB is refused, and no lsn is used. */
int c_journal_refuses_a_record_too_large(const char* dir) {
  c_path path = c_path_in(dir, "log");
  sluice_journal* j = NULL;
  CHECK_OK(sluice_journal_open(&j, path.text, NULL));
  size_t size = ((size_t)64 << 20) + 1;
  char* huge = malloc(size); /* never read: refused before any copy */
  CHECK(huge != NULL);
  uint64_t lsn = 0;
  int appended = sluice_journal_append(j, huge, size, &lsn);
  free(huge);
  CHECK_RC(appended, EMSGSIZE);
  CHECK_OK(sluice_journal_next_lsn(j, &lsn));
  CHECK_U64(lsn, 1);
  CHECK_OK(sluice_journal_close(j));
  return 0;
}

enum { writers = 4, records_each = 50 };

/* One of the threads of the test below: its records "<thread> <i>", each
   written (appended and committed), and the lsn each got. */
struct committer {
  sluice_journal* journal;
  int thread;
  int failed; /* the first rc that was not 0 */
  uint64_t lsns[records_each];
};

static void* commit_records(void* argument) {
  struct committer* self = argument;
  char text[32];
  for (int i = 0; i < records_each && self->failed == 0; ++i) {
    int size = snprintf(text, sizeof text, "%d %d", self->thread, i);
    self->failed = sluice_journal_write(self->journal, text, (size_t)size, &self->lsns[i]);
  }
  return NULL;
}

/* Threads writing to one journal at once (group commit): every record gets
   its own lsn, in each thread's order, and reads back once. */
int c_journal_threads_write_at_once(const char* dir) {
  c_path path = c_path_in(dir, "log");
  sluice_journal* j = NULL;
  CHECK_OK(sluice_journal_open(&j, path.text, NULL));
  struct committer committers[writers];
  pthread_t threads[writers];
  for (int t = 0; t < writers; ++t) {
    committers[t].journal = j;
    committers[t].thread = t;
    committers[t].failed = 0;
    CHECK(pthread_create(&threads[t], NULL, commit_records, &committers[t]) == 0);
  }
  for (int t = 0; t < writers; ++t) CHECK(pthread_join(threads[t], NULL) == 0);
  int next_record[writers] = {0};
  for (int t = 0; t < writers; ++t) {
    CHECK_OK(committers[t].failed);
    for (int i = 1; i < records_each; ++i) CHECK(committers[t].lsns[i] > committers[t].lsns[i - 1]);
  }
  sluice_journal_cursor* cursor = NULL;
  CHECK_OK(sluice_journal_read_from(j, 1, &cursor));
  for (uint64_t lsn = 1; lsn <= writers * records_each; ++lsn) {
    uint64_t got = 0;
    const void* data = NULL;
    size_t size = 0;
    CHECK_OK(sluice_journal_cursor_next(cursor, &got, &data, &size));
    CHECK_U64(got, lsn);
    char text[32];
    snprintf(text, sizeof text, "%.*s", (int)size, (const char*)data);
    int thread = -1;
    int i = -1;
    CHECK(sscanf(text, "%d %d", &thread, &i) == 2 && thread >= 0 && thread < writers);
    CHECK_INT(i, next_record[thread]); /* each thread's records in its order, once */
    CHECK_U64(committers[thread].lsns[i], lsn);
    ++next_record[thread];
  }
  CHECK_CURSOR_END(cursor);
  sluice_journal_cursor_close(cursor);
  CHECK_OK(sluice_journal_close(j));
  return 0;
}
