/* What every call does with a NULL handle, option structs of every size,
   the last error per thread, and the error handler's setter. */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "c_check.h"
#include "c_support.h"
#include "c_tests.h"

/* `call` refuses its NULL handle with EINVAL and says so. */
#define CHECK_REFUSED(call)                                  \
  do {                                                       \
    CHECK_RC(call, EINVAL);                                  \
    CHECK(strncmp(sluice_last_error(), "sluice: ", 8) == 0); \
  } while (0)

int c_handles_null_is_refused_by_every_call(const char* dir) {
  (void)dir;
  sluice_writer* w = NULL;
  sluice_reader* r = NULL;
  sluice_journal* j = NULL;
  char* room = NULL;
  size_t size = 0;
  CHECK_REFUSED(sluice_writer_put(w, 'x'));
  CHECK_REFUSED((sluice_writer_put)(w, 'x'));
  CHECK_REFUSED(sluice_writer_write(w, "x", 1));
  CHECK_REFUSED((sluice_writer_write)(w, "x", 1));
  CHECK_REFUSED(sluice_writer_write(w, "", 0));
  CHECK_REFUSED(sluice_writer_print_i64(w, 1));
  CHECK_REFUSED(sluice_writer_print_u64(w, 1));
  CHECK_REFUSED(sluice_writer_print_double(w, 1));
  CHECK_REFUSED(sluice_writer_print_fixed(w, 1, 1));
  CHECK_REFUSED(sluice_writer_printf(w, "%d", 1));
  CHECK_REFUSED(sluice_writer_reserve(w, 1, &room, &size));
  CHECK_REFUSED(sluice_writer_commit(w, 0));
  CHECK_REFUSED(sluice_writer_flush(w));
  CHECK_REFUSED(sluice_writer_sync(w));
  CHECK_U64(sluice_writer_tell(w), 0);

  const char* line = NULL;
  const void* data = NULL;
  char bytes[4];
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  CHECK_REFUSED(sluice_reader_read_line(r, &line, &size));
  CHECK_REFUSED(sluice_reader_skip_line(r));
  CHECK_REFUSED(sluice_reader_read(r, bytes, sizeof bytes));
  CHECK_REFUSED(sluice_reader_read_some(r, bytes, sizeof bytes, &size));
  CHECK_REFUSED(sluice_reader_peek(r, 1, &data, &size));
  CHECK_REFUSED(sluice_reader_consume(r, 0));
  CHECK_REFUSED(sluice_reader_read_i64(r, ',', &i));
  CHECK_REFUSED(sluice_reader_read_u64(r, ',', &u));
  CHECK_REFUSED(sluice_reader_read_double(r, ',', &d));
  CHECK_U64(sluice_reader_tell(r), 0);

  sluice_bytes batch[] = {{"x", 1}};
  sluice_journal_cursor* cursor = NULL;
  CHECK_REFUSED(sluice_journal_append(j, "x", 1, &u));
  CHECK_REFUSED(sluice_journal_append_many(j, batch, 1, &u));
  CHECK_REFUSED(sluice_journal_commit(j, 1));
  CHECK_REFUSED(sluice_journal_write(j, "x", 1, &u));
  CHECK_REFUSED(sluice_journal_read_from(j, 1, &cursor));
  CHECK_REFUSED(sluice_journal_cursor_next(cursor, &u, &data, &size));
  CHECK_REFUSED(sluice_journal_truncate_before(j, 1));
  CHECK_REFUSED(sluice_journal_first_lsn(j, &u));
  CHECK_REFUSED(sluice_journal_next_lsn(j, &u));
  return 0;
}

/* A NULL path (or directory) is refused, and *out is NULL. */
int c_handles_null_path_is_refused(const char* dir) {
  (void)dir;
  sluice_writer* w = (sluice_writer*)&w;
  CHECK_REFUSED(sluice_writer_open(&w, NULL, NULL));
  CHECK(w == NULL);
  sluice_reader* r = (sluice_reader*)&r;
  CHECK_REFUSED(sluice_reader_open(&r, NULL, NULL));
  CHECK(r == NULL);
  sluice_journal* j = (sluice_journal*)&j;
  CHECK_REFUSED(sluice_journal_open(&j, NULL, NULL));
  CHECK(j == NULL);
  return 0;
}

/* Closing, destroying or initializing nothing does nothing (and succeeds). */
int c_handles_close_or_init_of_null_does_nothing(const char* dir) {
  (void)dir;
  sluice_writer_options_init(NULL);
  sluice_reader_options_init(NULL);
  sluice_journal_options_init(NULL);
  CHECK_OK(sluice_writer_close(NULL));
  sluice_writer_destroy(NULL);
  CHECK_OK(sluice_reader_close(NULL));
  CHECK_OK(sluice_journal_close(NULL));
  sluice_journal_cursor_close(NULL);
  return 0;
}

/* Options whose size is 0 are refused; so are values out of range. */
int c_handles_options_of_size_zero_or_out_of_range_are_refused(const char* dir) {
  c_path path = c_path_in(dir, "file");
  CHECK_OK(c_write_all(path.text, "x\n", 2));
  sluice_writer_options writing;
  sluice_writer_options_init(&writing);
  writing.size = 0;
  sluice_writer* w = (sluice_writer*)&path;
  CHECK_RC(sluice_writer_open(&w, path.text, &writing), EINVAL);
  CHECK(w == NULL);
  CHECK_RC(sluice_writer_from_fd(&w, 2, "standard error", &writing), EINVAL);
  sluice_writer_options_init(&writing);
  writing.durability = 4;
  CHECK_RC(sluice_writer_open(&w, path.text, &writing), EINVAL);
  sluice_writer_options_init(&writing);
  writing.caching = -1;
  CHECK_RC(sluice_writer_open(&w, path.text, &writing), EINVAL);
  sluice_writer_options_init(&writing);
  writing.atomic_replace = 1;
  CHECK_RC(sluice_writer_from_fd(&w, 2, "standard error", &writing), EINVAL);
  sluice_writer_options_init(&writing);
  writing.caching = SLUICE_CACHING_DIRECT;
  CHECK_RC(sluice_writer_from_fd(&w, 2, "standard error", &writing), EINVAL);
  CHECK(w == NULL);

  sluice_reader_options reading;
  sluice_reader_options_init(&reading);
  reading.size = 0;
  sluice_reader* r = (sluice_reader*)&path;
  CHECK_RC(sluice_reader_open(&r, path.text, &reading), EINVAL);
  CHECK(r == NULL);
  CHECK_RC(sluice_reader_from_fd(&r, 0, "standard input", &reading), EINVAL);
  sluice_reader_options_init(&reading);
  reading.line_end = 2;
  CHECK_RC(sluice_reader_open(&r, path.text, &reading), EINVAL);
  sluice_reader_options_init(&reading);
  reading.caching = 3;
  CHECK_RC(sluice_reader_open(&r, path.text, &reading), EINVAL);
  CHECK(r == NULL);

  sluice_journal_options journaling;
  sluice_journal_options_init(&journaling);
  journaling.size = 0;
  sluice_journal* j = (sluice_journal*)&path;
  c_path log = c_path_in(dir, "log");
  CHECK_RC(sluice_journal_open(&j, log.text, &journaling), EINVAL);
  CHECK(j == NULL);
  CHECK(c_file_size(log.text) == UINT64_MAX); /* nothing created */
  return 0;
}

/* Options from a newer caller, whose struct has grown fields this version
   does not know: taken while those are zero (their defaults), refused
   (EINVAL) if one is set, as this version could not honour it. */
int c_handles_options_from_a_newer_caller_are_checked_past_their_size(const char* dir) {
  c_path path = c_path_in(dir, "newer");
  struct newer_writer_options {
    sluice_writer_options known;
    uint64_t unknown;
  } writing;
  memset(&writing, 0, sizeof writing);
  sluice_writer_options_init(&writing.known);
  writing.known.size = sizeof writing;
  writing.known.buffer_size = 16;
  sluice_writer* w = NULL;
  CHECK_OK(sluice_writer_open(&w, path.text, &writing.known));
  CHECK_OK(sluice_writer_write(w, "0123456789abcdefg", 17));
  CHECK(c_file_size(path.text) >= 16); /* the known fields are honoured */
  CHECK_OK(sluice_writer_close(w));
  writing.unknown = 1;
  CHECK_RC(sluice_writer_open(&w, path.text, &writing.known), EINVAL);
  CHECK(w == NULL);

  struct newer_reader_options {
    sluice_reader_options known;
    uint64_t unknown;
  } reading;
  memset(&reading, 0, sizeof reading);
  sluice_reader_options_init(&reading.known);
  reading.known.size = sizeof reading;
  sluice_reader* r = NULL;
  CHECK_OK(sluice_reader_open(&r, path.text, &reading.known));
  CHECK_OK(sluice_reader_close(r));
  reading.unknown = 1;
  CHECK_RC(sluice_reader_open(&r, path.text, &reading.known), EINVAL);

  struct newer_journal_options {
    sluice_journal_options known;
    uint64_t unknown;
  } journaling;
  memset(&journaling, 0, sizeof journaling);
  sluice_journal_options_init(&journaling.known);
  journaling.known.size = sizeof journaling;
  c_path log = c_path_in(dir, "log");
  sluice_journal* j = NULL;
  CHECK_OK(sluice_journal_open(&j, log.text, &journaling.known));
  CHECK_OK(sluice_journal_close(j));
  journaling.unknown = 1;
  CHECK_RC(sluice_journal_open(&j, log.text, &journaling.known), EINVAL);
  return 0;
}

static char other_thread_saw[2][512];
static int other_thread_rc;

static void* fail_on_another_thread(void* unused) {
  (void)unused;
  snprintf(other_thread_saw[0], sizeof other_thread_saw[0], "%s", sluice_last_error());
  int64_t value = 0;
  other_thread_rc = sluice_parse_i64("other", 5, &value);
  snprintf(other_thread_saw[1], sizeof other_thread_saw[1], "%s", sluice_last_error());
  return NULL;
}

/* Each thread has its own last error, "" until a call fails on it; a
   call that succeeds leaves it as it was. */
int c_handles_last_error_is_per_thread(const char* dir) {
  (void)dir;
  int64_t value = 0;
  CHECK_RC(sluice_parse_i64("mine", 4, &value), EINVAL);
  CHECK_ERROR("sluice: parse int64 \"mine\": expected a decimal integer");
  CHECK_OK(sluice_parse_i64("1", 1, &value));
  CHECK_ERROR("sluice: parse int64 \"mine\": expected a decimal integer");
  pthread_t thread;
  CHECK(pthread_create(&thread, NULL, fail_on_another_thread, NULL) == 0);
  CHECK(pthread_join(thread, NULL) == 0);
  CHECK_STR(other_thread_saw[0], "");
  CHECK_INT(other_thread_rc, EINVAL);
  CHECK_STR(other_thread_saw[1], "sluice: parse int64 \"other\": expected a decimal integer");
  CHECK_ERROR("sluice: parse int64 \"mine\": expected a decimal integer");
  return 0;
}

static void handler_one(int error, const char* message) {
  (void)error;
  (void)message;
}

/* The setter returns the handler it replaces: NULL for the default. */
int c_handles_error_handler_setter_returns_the_previous(const char* dir) {
  (void)dir;
  CHECK(sluice_set_error_handler(handler_one) == NULL);
  CHECK(sluice_set_error_handler(NULL) == handler_one);
  CHECK(sluice_set_error_handler(NULL) == NULL);
  return 0;
}
