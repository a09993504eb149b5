/* The C consumer's program: the writer, the reader and the journal through
   <sluice/c.h> from an installed sluice, each checked by reading back what
   it wrote, and an error carried across the C boundary. Exits non-zero,
   saying what differed, on the first failure. argv[1]: a scratch directory
   (created if missing; each run works in a fresh directory inside). */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <sluice/c.h>
#include <sluice/version.hpp> /* plain macros: valid C */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A call that must return 0; else the program says which and why. */
#define CHECK(call)                                                                           \
  do {                                                                                        \
    int check_error_ = (call);                                                                \
    if (check_error_ != 0) {                                                                  \
      fprintf(stderr, "%s:%d: %s returned %d: %s\n", __FILE__, __LINE__, #call, check_error_, \
              sluice_last_error());                                                           \
      return 1;                                                                               \
    }                                                                                         \
  } while (0)

#define EXPECT(condition)                                                      \
  do {                                                                         \
    if (!(condition)) {                                                        \
      fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #condition); \
      return 1;                                                                \
    }                                                                          \
  } while (0)

enum { rows = 20000 };

/* dir/name in path[size]; nonzero (and a message) if it does not fit. */
static int join(char* path, size_t size, const char* dir, const char* name) {
  int length = snprintf(path, size, "%s/%s", dir, name);
  if (length < 0 || (size_t)length >= size) {
    fprintf(stderr, "the path %s/%s is too long\n", dir, name);
    return 1;
  }
  return 0;
}

/* rows of "<-7i>,<i/8>,x\n" through a small buffer (many flushes), then a
   printf line and a reserved one. */
static int write_rows(const char* path, uint64_t* told) {
  sluice_writer_options options;
  sluice_writer* out;
  char* room;
  size_t room_size;
  int i;
  sluice_writer_options_init(&options);
  EXPECT(options.size == sizeof options);
  options.buffer_size = 4096;
  options.durability = SLUICE_DURABILITY_DATA_ON_CLOSE;
  CHECK(sluice_writer_open(&out, path, &options));
  for (i = 0; i < rows; ++i) {
    CHECK(sluice_writer_print_i64(out, (int64_t)i * -7));
    CHECK(sluice_writer_put(out, ','));
    CHECK(sluice_writer_print_double(out, i / 8.0));
    CHECK(sluice_writer_write(out, ",x\n", 3));
  }
  CHECK(sluice_writer_printf(out, "%s %d\n", "end", 42));
  CHECK(sluice_writer_reserve(out, 4, &room, &room_size));
  EXPECT(room_size >= 4);
  memcpy(room, "tail", 4);
  CHECK(sluice_writer_commit(out, 4));
  CHECK((sluice_writer_put)(out, '\n')); /* the exported function, not the macro */
  *told = sluice_writer_tell(out);
  CHECK(sluice_writer_flush(out));
  CHECK(sluice_writer_sync(out));
  CHECK(sluice_writer_close(out));
  return 0;
}

static int expect_line(sluice_reader* in, const char* expected) {
  const char* line;
  size_t size;
  CHECK(sluice_reader_read_line(in, &line, &size));
  EXPECT(size == strlen(expected) && memcmp(line, expected, size) == 0);
  return 0;
}

static int read_rows(const char* path, uint64_t told) {
  sluice_reader_options options;
  sluice_reader* in;
  const char* line;
  size_t size;
  struct stat status;
  int i;
  sluice_reader_options_init(&options);
  EXPECT(options.size == sizeof options);
  CHECK(sluice_reader_open(&in, path, &options));
  for (i = 0; i < rows; ++i) {
    int64_t n;
    double x;
    CHECK(sluice_reader_read_i64(in, ',', &n));
    EXPECT(n == (int64_t)i * -7);
    CHECK(sluice_reader_read_double(in, ',', &x));
    EXPECT(x == i / 8.0);
    if (expect_line(in, "x") != 0) return 1;
  }
  if (expect_line(in, "end 42") != 0 || expect_line(in, "tail") != 0) return 1;
  EXPECT(sluice_reader_read_line(in, &line, &size) == SLUICE_EOF);
  EXPECT(sluice_reader_tell(in) == told);
  CHECK(sluice_reader_close(in));
  EXPECT(stat(path, &status) == 0 && (uint64_t)status.st_size == told);
  return 0;
}

/* A failure comes back as its errno value, with the C++ library's message. */
static int open_fails(const char* dir) {
  char path[4096];
  sluice_writer* out = (sluice_writer*)&out;
  if (join(path, sizeof path, dir, "missing/out.txt") != 0) return 1;
  EXPECT(sluice_writer_open(&out, path, NULL) == ENOENT);
  EXPECT(out == NULL);
  EXPECT(strstr(sluice_last_error(), "missing/out.txt") != NULL);
  return 0;
}

static int write_journal(const char* dir) {
  sluice_journal_options options;
  sluice_journal* log;
  sluice_bytes batch[2];
  uint64_t lsn;
  sluice_journal_options_init(&options);
  EXPECT(options.size == sizeof options);
  CHECK(sluice_journal_open(&log, dir, &options));
  CHECK(sluice_journal_append(log, "one", 3, &lsn));
  EXPECT(lsn == 1);
  CHECK(sluice_journal_commit(log, lsn));
  batch[0].data = "two";
  batch[0].size = 3;
  batch[1].data = "three";
  batch[1].size = 5;
  CHECK(sluice_journal_append_many(log, batch, 2, &lsn));
  EXPECT(lsn == 3);
  CHECK(sluice_journal_write(log, "four", 4, &lsn));
  EXPECT(lsn == 4);
  CHECK(sluice_journal_first_lsn(log, &lsn));
  EXPECT(lsn == 1);
  CHECK(sluice_journal_next_lsn(log, &lsn));
  EXPECT(lsn == 5);
  CHECK(sluice_journal_close(log));
  return 0;
}

static int read_journal(const char* dir) {
  static const char* const expected[] = {"one", "two", "three", "four"};
  sluice_journal* log;
  sluice_journal_cursor* cursor;
  uint64_t lsn;
  const void* data;
  size_t size;
  int i;
  CHECK(sluice_journal_open(&log, dir, NULL));
  CHECK(sluice_journal_read_from(log, 1, &cursor));
  for (i = 0; i < 4; ++i) {
    CHECK(sluice_journal_cursor_next(cursor, &lsn, &data, &size));
    EXPECT(lsn == (uint64_t)i + 1);
    EXPECT(size == strlen(expected[i]) && memcmp(data, expected[i], size) == 0);
  }
  EXPECT(sluice_journal_cursor_next(cursor, &lsn, &data, &size) == SLUICE_EOF);
  sluice_journal_cursor_close(cursor);
  CHECK(sluice_journal_truncate_before(log, 1));
  CHECK(sluice_journal_close(log));
  return 0;
}

int main(int argc, char** argv) {
  char run[4096];
  char path[4096];
  uint64_t told = 0;
  if (argc != 2) {
    fprintf(stderr, "usage: %s <scratch directory>\n", argv[0]);
    return 2;
  }
  if (strcmp(SLUICE_VERSION_STRING, SLUICE_EXPECTED_VERSION) != 0) {
    fprintf(stderr, "version.hpp says %s, the package %s\n", SLUICE_VERSION_STRING,
            SLUICE_EXPECTED_VERSION);
    return 2;
  }
  /* A fresh directory per run: a journal left by an earlier one would hold
     other lsns. */
  if (join(run, sizeof run, argv[1], "run-XXXXXX") != 0) return 2;
  if ((mkdir(argv[1], 0755) != 0 && errno != EEXIST) || mkdtemp(run) == NULL) {
    perror(run);
    return 2;
  }
  if (join(path, sizeof path, run, "rows.csv") != 0) return 2;
  if (write_rows(path, &told) != 0 || read_rows(path, told) != 0) return 3;
  if (open_fails(run) != 0) return 4;
  if (join(path, sizeof path, run, "journal") != 0) return 2;
  if (write_journal(path) != 0 || read_journal(path) != 0) return 5;
  puts("the C API wrote, read and journaled through the installed package");
  return 0;
}
