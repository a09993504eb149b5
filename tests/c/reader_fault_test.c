/* The C reader under faults injected through the seam: EIO names the
   offset and the next call reads again; EINTR and short reads do not show. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "c_check.h"
#include "c_support.h"
#include "c_tests.h"
#include "support/c_fake_sys.h"

/* The reading calls, each as a function that reads something from a
   reader positioned at "12,lines...": returns 0 on success, else the rc. */
typedef int (*read_site)(sluice_reader* r);

static int by_read_line(sluice_reader* r) {
  const char* line = NULL;
  size_t size = 0;
  return sluice_reader_read_line(r, &line, &size);
}
static int by_skip_line(sluice_reader* r) { return sluice_reader_skip_line(r); }
static int by_read(sluice_reader* r) {
  char out[64]; /* larger than the buffer: straight into `out` */
  return sluice_reader_read(r, out, sizeof out);
}
static int by_read_some(sluice_reader* r) {
  char out[8];
  size_t got = 0;
  return sluice_reader_read_some(r, out, sizeof out, &got);
}
static int by_peek(sluice_reader* r) {
  const void* data = NULL;
  size_t size = 0;
  return sluice_reader_peek(r, 4, &data, &size);
}
static int by_read_i64(sluice_reader* r) {
  int64_t value = 0;
  return sluice_reader_read_i64(r, ',', &value);
}
static int by_read_u64(sluice_reader* r) {
  uint64_t value = 0;
  return sluice_reader_read_u64(r, ',', &value);
}
static int by_read_double(sluice_reader* r) {
  double value = 0;
  return sluice_reader_read_double(r, ',', &value);
}

/* At each reading call: the first read fails with EIO, named with the path
   and offset; nothing is consumed; the same call then succeeds. */
int c_reader_fault_eio_names_the_offset_and_the_next_call_reads_again(const char* dir) {
  static const read_site sites[] = {by_read_line, by_skip_line, by_read,     by_read_some,
                                    by_peek,      by_read_i64,  by_read_u64, by_read_double};
  c_path path = c_path_in(dir, "in");
  char content[200] = "12,";
  c_pattern(content + 3, 150, 2);
  content[100] = '\n';
  CHECK_OK(c_write_all(path.text, content, strlen(content)));
  char expected[1200];
  snprintf(expected, sizeof expected, "sluice: read '%s' at offset 0: %s", path.text,
           strerror(EIO));
  sluice_reader_options options;
  sluice_reader_options_init(&options);
  options.buffer_size = 16;
  for (size_t i = 0; i < sizeof sites / sizeof sites[0]; ++i) {
    sluice_reader* r = NULL;
    CHECK_OK(sluice_reader_open(&r, path.text, &options));
    CHECK_OK(c_fake_install());
    c_fake_fail(C_FAKE_READ_AT, 1, EIO);
    int failed = sites[i](r);
    if (failed != EIO)
      return c_check_fail(__FILE__, __LINE__, "reading call %zu returned %d, expected EIO", i,
                          failed);
    CHECK_ERROR(expected);
    CHECK_U64(sluice_reader_tell(r), 0);
    int again = sites[i](r);
    if (again != 0)
      return c_check_fail(__FILE__, __LINE__, "reading call %zu, again: %d (%s)", i, again,
                          sluice_last_error());
    c_fake_remove();
    CHECK_OK(sluice_reader_close(r));
  }
  return 0;
}

/* Short reads (of 1 byte and more) and reads interrupted with EINTR
   between them: every line arrives whole. */
int c_reader_fault_eintr_and_short_reads_do_not_show(const char* dir) {
  static char content[5001];
  c_pattern(content, sizeof content - 1, 6);
  for (size_t i = 37; i < sizeof content - 1; i += 37 + i % 11) content[i] = '\n';
  content[sizeof content - 2] = 'z'; /* no newline at the end */
  c_path path = c_path_in(dir, "in");
  CHECK_OK(c_write_all(path.text, content, strlen(content)));
  sluice_reader_options options;
  sluice_reader_options_init(&options);
  options.buffer_size = 64;
  sluice_reader* r = NULL;
  CHECK_OK(c_fake_install());
  CHECK_OK(sluice_reader_open(&r, path.text, &options));
  for (int nth = 1; nth < 60; nth += 3) {
    c_fake_short_transfer(C_FAKE_READ_AT, nth, 1 + (size_t)nth % 7);
    c_fake_fail(C_FAKE_READ_AT, nth + 1, EINTR);
  }
  static char got[sizeof content];
  size_t size = 0;
  const char* line = NULL;
  size_t length = 0;
  int rc;
  while ((rc = sluice_reader_read_line(r, &line, &length)) == 0) {
    memcpy(got + size, line, length);
    size += length;
    got[size++] = '\n';
  }
  CHECK_RC(rc, SLUICE_EOF);
  CHECK(c_fake_calls(C_FAKE_READ_AT) > 60);
  c_fake_remove();
  CHECK_OK(sluice_reader_close(r));
  got[size - 1] = '\0'; /* the newline after the last line, which the content has not */
  CHECK_STR(got, content);
  return 0;
}

/* A pipe: a short read and EINTR do not show; EIO names the descriptor and
   the offset, and sticks (the bytes the failed read took are gone). */
int c_reader_fault_on_a_pipe(const char* dir) {
  (void)dir;
  int ends[2];
  CHECK(pipe(ends) == 0);
  CHECK(write(ends[1], "first line\nsecond\n", 18) == 18);
  CHECK(close(ends[1]) == 0);
  sluice_reader* r = NULL;
  CHECK_OK(c_fake_install());
  CHECK_OK(sluice_reader_from_fd(&r, ends[0], "the pipe", NULL));
  int reads = c_fake_calls(C_FAKE_READ_STREAM);
  c_fake_short_transfer(C_FAKE_READ_STREAM, reads + 1, 3);
  c_fake_fail(C_FAKE_READ_STREAM, reads + 2, EINTR);
  const char* line = NULL;
  size_t size = 0;
  CHECK_OK(sluice_reader_read_line(r, &line, &size));
  CHECK_BYTES(line, size, "first line");
  CHECK_OK(sluice_reader_read_line(r, &line, &size)); /* buffered already */
  CHECK_BYTES(line, size, "second");
  reads = c_fake_calls(C_FAKE_READ_STREAM);
  c_fake_fail(C_FAKE_READ_STREAM, reads + 1, EIO);
  char expected[200];
  snprintf(expected, sizeof expected, "sluice: read 'the pipe' at offset 18: %s", strerror(EIO));
  for (int twice = 0; twice < 2; ++twice) {
    CHECK_RC(sluice_reader_read_line(r, &line, &size), EIO);
    CHECK_ERROR(expected);
  }
  CHECK_INT(c_fake_calls(C_FAKE_READ_STREAM), reads + 1);
  c_fake_remove();
  CHECK_OK(sluice_reader_close(r));
  CHECK(close(ends[0]) == 0);
  return 0;
}
