/* The C reader: lines, bytes, numbers, options, pipes. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "c_check.h"
#include "c_support.h"
#include "c_tests.h"

/* A file at "<dir>/<name>" holding `content`, and a reader on it with a
   buffer of `buffer_size` bytes (0: the default). */
static int open_on(sluice_reader** out, const char* dir, const char* name, const char* content,
                   size_t buffer_size) {
  c_path path = c_path_in(dir, name);
  int written = c_write_all(path.text, content, strlen(content));
  if (written != 0) return written;
  sluice_reader_options options;
  sluice_reader_options_init(&options);
  options.buffer_size = buffer_size;
  return sluice_reader_open(out, path.text, &options);
}

/* The next line is `expected`. */
#define CHECK_LINE(reader, expected)                           \
  do {                                                         \
    const char* line_ = NULL;                                  \
    size_t size_ = 0;                                          \
    CHECK_OK(sluice_reader_read_line(reader, &line_, &size_)); \
    CHECK_BYTES(line_, size_, expected);                       \
  } while (0)

int c_reader_reads_lines_and_a_last_one_without_newline(const char* dir) {
  sluice_reader* r = NULL;
  CHECK_OK(open_on(&r, dir, "lines", "one\n\nthree\r\nlast", 4));
  CHECK_LINE(r, "one");
  CHECK_LINE(r, "");
  CHECK_LINE(r, "three\r"); /* LF: the '\r' stays in the line */
  CHECK_U64(sluice_reader_tell(r), 12);
  CHECK_LINE(r, "last");
  const char* line = NULL;
  size_t size = 7;
  CHECK_RC(sluice_reader_read_line(r, &line, &size), SLUICE_EOF);
  CHECK_RC(sluice_reader_read_line(r, &line, &size), SLUICE_EOF);
  CHECK_U64(sluice_reader_tell(r), 16);
  CHECK_OK(sluice_reader_close(r));

  CHECK_OK(open_on(&r, dir, "empty", "", 0));
  CHECK_RC(sluice_reader_read_line(r, &line, &size), SLUICE_EOF);
  CHECK_OK(sluice_reader_close(r));
  return 0;
}

int c_reader_crlf_option_drops_the_carriage_return(const char* dir) {
  c_path path = c_path_in(dir, "crlf");
  CHECK_OK(c_write_all(path.text, "a\r\nb\nc\r\r\nd\r", 11));
  sluice_reader_options options;
  sluice_reader_options_init(&options);
  CHECK_U64(options.size, sizeof options);
  options.line_end = SLUICE_LINE_END_CRLF;
  sluice_reader* r = NULL;
  CHECK_OK(sluice_reader_open(&r, path.text, &options));
  CHECK_LINE(r, "a");
  CHECK_LINE(r, "b");
  CHECK_LINE(r, "c\r");
  CHECK_LINE(r, "d\r"); /* no line end after it: nothing to drop */
  const char* line = NULL;
  size_t size = 0;
  CHECK_RC(sluice_reader_read_line(r, &line, &size), SLUICE_EOF);
  CHECK_OK(sluice_reader_close(r));
  return 0;
}

/* A line past max_line: EMSGSIZE naming it, the reader left at its start;
   skip_line goes past it. */
int c_reader_too_long_a_line_is_refused_then_skipped(const char* dir) {
  char content[200] = "ok\n";
  memset(content + 3, 'x', 100);
  strcpy(content + 103, "\nafter\n");
  c_path path = c_path_in(dir, "long");
  CHECK_OK(c_write_all(path.text, content, strlen(content)));
  sluice_reader_options options;
  sluice_reader_options_init(&options);
  options.buffer_size = 16;
  options.max_line = 10;
  sluice_reader* r = NULL;
  CHECK_OK(sluice_reader_open(&r, path.text, &options));
  CHECK_LINE(r, "ok");
  char expected[1200];
  snprintf(expected, sizeof expected,
           "sluice: read_line '%s' at offset 3: line 2 is longer than 10 bytes: %s", path.text,
           strerror(EMSGSIZE));
  for (int twice = 0; twice < 2; ++twice) {
    const char* line = NULL;
    size_t size = 0;
    CHECK_RC(sluice_reader_read_line(r, &line, &size), EMSGSIZE);
    CHECK_ERROR(expected);
    CHECK_U64(sluice_reader_tell(r), 3);
  }
  CHECK_OK(sluice_reader_skip_line(r));
  CHECK_U64(sluice_reader_tell(r), 104);
  CHECK_LINE(r, "after");
  CHECK_RC(sluice_reader_skip_line(r), SLUICE_EOF);
  CHECK_OK(sluice_reader_close(r));
  return 0;
}

/* read: exactly the bytes asked, SLUICE_EOF when the input ends first (what
   there was is in the buffer given); read_some: at least one. */
int c_reader_reads_bytes_exactly_and_some(const char* dir) {
  sluice_reader* r = NULL;
  CHECK_OK(open_on(&r, dir, "bytes", "0123456789abcdefghij", 8));
  char got[32];
  CHECK_OK(sluice_reader_read(r, got, 3));
  CHECK_BYTES(got, 3, "012");
  CHECK_OK(sluice_reader_read(r, got, 10)); /* past the 8-byte buffer */
  CHECK_BYTES(got, 10, "3456789abc");
  CHECK_OK(sluice_reader_read(r, got, 0));
  size_t n = 0;
  CHECK_OK(sluice_reader_read_some(r, got, 2, &n));
  CHECK(n >= 1 && n <= 2);
  CHECK_BYTES(got, n, n == 1 ? "d" : "de");
  CHECK_U64(sluice_reader_tell(r), 13 + n);
  memset(got, '.', sizeof got);
  CHECK_RC(sluice_reader_read(r, got, 10), SLUICE_EOF);
  CHECK_U64(sluice_reader_tell(r), 20);
  CHECK_BYTES(got, 20 - 13 - n, n == 1 ? "efghij" : "fghij");
  CHECK_RC(sluice_reader_read_some(r, got, sizeof got, &n), SLUICE_EOF);
  CHECK_U64(n, 0);
  CHECK_OK(sluice_reader_close(r));
  return 0;
}

/* peek shows at least n bytes without consuming; consume moves past them,
   and refuses to go past what peek showed. */
int c_reader_peeks_and_consumes(const char* dir) {
  sluice_reader* r = NULL;
  CHECK_OK(open_on(&r, dir, "peek", "header:body", 4));
  const void* data = NULL;
  size_t size = 0;
  CHECK_OK(sluice_reader_peek(r, 7, &data, &size));
  CHECK(size >= 7);
  CHECK(memcmp(data, "header:", 7) == 0);
  CHECK_U64(sluice_reader_tell(r), 0);
  CHECK_OK(sluice_reader_consume(r, 7));
  CHECK_U64(sluice_reader_tell(r), 7);
  CHECK_OK(sluice_reader_peek(r, 100, &data, &size)); /* fewer at the end */
  CHECK_BYTES(data, size, "body");
  CHECK_RC(sluice_reader_consume(r, size + 1), EINVAL);
  CHECK_U64(sluice_reader_tell(r), 7);
  CHECK_OK(sluice_reader_consume(r, size));
  CHECK_OK(sluice_reader_peek(r, 1, &data, &size));
  CHECK_U64(size, 0);
  CHECK_OK(sluice_reader_close(r));
  return 0;
}

/* Numbers up to their terminators, then SLUICE_EOF. */
int c_reader_reads_numbers_up_to_terminators(const char* dir) {
  sluice_reader* r = NULL;
  CHECK_OK(open_on(&r, dir, "numbers",
                   "12,-7;0.5\n18446744073709551615,-9223372036854775808;1e+100\n", 8));
  for (int row = 0; row < 2; ++row) {
    uint64_t u = 0;
    int64_t i = 0;
    double d = 0;
    CHECK_OK(sluice_reader_read_u64(r, ',', &u));
    CHECK_OK(sluice_reader_read_i64(r, ';', &i));
    CHECK_OK(sluice_reader_read_double(r, '\n', &d));
    if (row == 0) {
      CHECK_U64(u, 12);
      CHECK_INT(i, -7);
      CHECK(d == 0.5);
    } else {
      CHECK_U64(u, UINT64_MAX);
      CHECK(i == INT64_MIN);
      CHECK(d == 1e100);
    }
  }
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  CHECK_RC(sluice_reader_read_i64(r, '\n', &i), SLUICE_EOF);
  CHECK_RC(sluice_reader_read_u64(r, '\n', &u), SLUICE_EOF);
  CHECK_RC(sluice_reader_read_double(r, '\n', &d), SLUICE_EOF);
  CHECK_OK(sluice_reader_close(r));
  return 0;
}

/* A field that is no number of its type: EINVAL; one out of range: ERANGE;
   the message names the text, the file, the line and the offset, and
   nothing is consumed. */
int c_reader_number_refusals_name_text_line_and_offset(const char* dir) {
  c_path path = c_path_in(dir, "bad");
  const char* content = "1,x2\n-5,300000000000000000000\n1.5e,7\n";
  CHECK_OK(c_write_all(path.text, content, strlen(content)));
  sluice_reader* r = NULL;
  CHECK_OK(sluice_reader_open(&r, path.text, NULL));
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  char expected[1200];
  CHECK_OK(sluice_reader_read_i64(r, ',', &i));
  CHECK_RC(sluice_reader_read_i64(r, '\n', &i), EINVAL);
  snprintf(expected, sizeof expected,
           "sluice: parse int64 \"x2\" in '%s' at line 1, offset 2: expected a decimal integer",
           path.text);
  CHECK_ERROR(expected);
  CHECK_U64(sluice_reader_tell(r), 2);
  CHECK_OK(sluice_reader_skip_line(r));

  CHECK_RC(sluice_reader_read_u64(r, ',', &u), ERANGE); /* a negative number */
  snprintf(expected, sizeof expected,
           "sluice: parse uint64 \"-5\" in '%s' at line 2, offset 5: out of range", path.text);
  CHECK_ERROR(expected);
  CHECK_OK(sluice_reader_read_i64(r, ',', &i));
  CHECK_INT(i, -5);
  CHECK_RC(sluice_reader_read_u64(r, '\n', &u), ERANGE);
  snprintf(expected, sizeof expected,
           "sluice: parse uint64 \"300000000000000000000\" in '%s' at line 2, offset 8: out of "
           "range",
           path.text);
  CHECK_ERROR(expected);
  CHECK_OK(sluice_reader_skip_line(r));

  CHECK_RC(sluice_reader_read_double(r, ',', &d), EINVAL);
  snprintf(expected, sizeof expected,
           "sluice: parse double \"1.5e\" in '%s' at line 3, offset 30: expected a decimal "
           "number, inf or nan",
           path.text);
  CHECK_ERROR(expected);
  CHECK_OK(sluice_reader_skip_line(r));
  CHECK_OK(sluice_reader_close(r));
  return 0;
}

/* A pipe, read through a borrowed descriptor that close leaves open. */
int c_reader_from_fd_reads_a_pipe(const char* dir) {
  (void)dir;
  int ends[2];
  CHECK(pipe(ends) == 0);
  const char* content = "first\n2,3\nno newline";
  CHECK(write(ends[1], content, strlen(content)) == (ssize_t)strlen(content));
  CHECK(close(ends[1]) == 0);
  sluice_reader_options options;
  sluice_reader_options_init(&options);
  options.buffer_size = 4;
  sluice_reader* r = NULL;
  CHECK_OK(sluice_reader_from_fd(&r, ends[0], "the pipe", &options));
  CHECK_LINE(r, "first");
  int64_t a = 0;
  int64_t b = 0;
  CHECK_OK(sluice_reader_read_i64(r, ',', &a));
  CHECK_OK(sluice_reader_read_i64(r, '\n', &b));
  CHECK_INT(a * 10 + b, 23);
  CHECK_LINE(r, "no newline");
  const char* line = NULL;
  size_t size = 0;
  CHECK_RC(sluice_reader_read_line(r, &line, &size), SLUICE_EOF);
  CHECK_U64(sluice_reader_tell(r), strlen(content));
  CHECK_OK(sluice_reader_close(r));
  CHECK(close(ends[0]) == 0); /* still open: the reader borrowed it */
  return 0;
}

int c_reader_open_failure_names_the_path(const char* dir) {
  c_path path = c_path_in(dir, "absent");
  sluice_reader* r = (sluice_reader*)&path;
  CHECK_RC(sluice_reader_open(&r, path.text, NULL), ENOENT);
  CHECK(r == NULL);
  char expected[1200];
  snprintf(expected, sizeof expected, "sluice: open '%s': %s", path.text, strerror(ENOENT));
  CHECK_ERROR(expected);
  return 0;
}

/* The caching modes read the same bytes (direct where the filesystem allows). */
int c_reader_caching_options(const char* dir) {
  static char content[20001];
  c_pattern(content, sizeof content - 1, 4);
  for (size_t i = 100; i < sizeof content - 1; i += 100) content[i] = '\n';
  c_path path = c_path_in(dir, "cached");
  CHECK_OK(c_write_all(path.text, content, strlen(content)));
  static const int modes[] = {SLUICE_CACHING_NO_CACHE, SLUICE_CACHING_DIRECT};
  for (size_t m = 0; m < 2; ++m) {
    sluice_reader_options options;
    sluice_reader_options_init(&options);
    options.caching = modes[m];
    options.buffer_size = 4096;
    sluice_reader* r = NULL;
    int opened = sluice_reader_open(&r, path.text, &options);
    if (opened == EINVAL && modes[m] == SLUICE_CACHING_DIRECT) {
      CHECK(strstr(sluice_last_error(), "O_DIRECT") != NULL);
      continue;
    }
    CHECK_RC(opened, 0);
    static char got[sizeof content];
    CHECK_OK(sluice_reader_read(r, got, sizeof content - 1));
    CHECK(memcmp(got, content, sizeof content - 1) == 0);
    size_t n = 0;
    CHECK_RC(sluice_reader_read_some(r, got, 1, &n), SLUICE_EOF);
    CHECK_OK(sluice_reader_close(r));
  }
  return 0;
}
