/* The C writer: every call, every option, borrowed descriptors. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "c_check.h"
#include "c_support.h"
#include "c_tests.h"
#include "support/c_fake_sys.h"

/* Opens `path` with only the buffer size changed from the defaults. */
static int open_with_buffer(sluice_writer** out, const char* path, size_t buffer_size) {
  sluice_writer_options options;
  sluice_writer_options_init(&options);
  options.buffer_size = buffer_size;
  return sluice_writer_open(out, path, &options);
}

/* The file at `path` holds exactly `expected`. */
static int holds(const char* path, const char* expected) {
  size_t size = 0;
  char* text = c_read_all(path, &size);
  CHECK(text != NULL);
  int matches = c_check_bytes(__FILE__, __LINE__, path, text, size, expected);
  free(text);
  return matches ? 0 : 1;
}

/* A 16-byte buffer: single bytes and pieces of every size around it go in
   through the inline macros and the exported functions alike. */
int c_writer_puts_and_writes_inline_and_exported(const char* dir) {
  c_path path = c_path_in(dir, "out");
  sluice_writer* w = NULL;
  CHECK_OK(open_with_buffer(&w, path.text, 16));
  CHECK(w != NULL);
  char expected[1024];
  size_t n = 0;
  for (int i = 0; i < 100; ++i) {
    char c = (char)('a' + i % 26);
    if (i % 3 == 0)
      CHECK_OK((sluice_writer_put)(w, c));
    else
      CHECK_OK(sluice_writer_put(w, c));
    expected[n++] = c;
  }
  static const size_t sizes[] = {0, 1, 15, 16, 17, 31, 32, 33, 100, 7};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
    char piece[128];
    c_pattern(piece, sizes[i], (unsigned)i);
    if (i % 2 == 0)
      CHECK_OK(sluice_writer_write(w, piece, sizes[i]));
    else
      CHECK_OK((sluice_writer_write)(w, piece, sizes[i]));
    memcpy(expected + n, piece, sizes[i]);
    n += sizes[i];
    CHECK_U64(sluice_writer_tell(w), n);
  }
  expected[n] = '\0';
  CHECK_OK(sluice_writer_close(w));
  return holds(path.text, expected);
}

int c_writer_prints_numbers(const char* dir) {
  c_path path = c_path_in(dir, "numbers");
  sluice_writer* w = NULL;
  CHECK_OK(open_with_buffer(&w, path.text, 16)); /* numbers straddle the buffer's end */
  CHECK_OK(sluice_writer_print_i64(w, 0));
  CHECK_OK(sluice_writer_put(w, ' '));
  CHECK_OK(sluice_writer_print_i64(w, -42));
  CHECK_OK(sluice_writer_put(w, ' '));
  CHECK_OK(sluice_writer_print_i64(w, INT64_MIN));
  CHECK_OK(sluice_writer_put(w, ' '));
  CHECK_OK(sluice_writer_print_i64(w, INT64_MAX));
  CHECK_OK(sluice_writer_put(w, ' '));
  CHECK_OK(sluice_writer_print_u64(w, UINT64_MAX));
  CHECK_OK(sluice_writer_put(w, ' '));
  CHECK_OK(sluice_writer_print_double(w, 0.1));
  CHECK_OK(sluice_writer_put(w, ' '));
  CHECK_OK(sluice_writer_print_double(w, 1e100));
  CHECK_OK(sluice_writer_put(w, ' '));
  CHECK_OK(sluice_writer_print_double(w, -2.5));
  CHECK_OK(sluice_writer_put(w, ' '));
  CHECK_OK(sluice_writer_print_fixed(w, 3.14159, 2));
  CHECK_OK(sluice_writer_put(w, ' '));
  CHECK_OK(sluice_writer_print_fixed(w, -1.0, 3));
  CHECK_OK(sluice_writer_put(w, ' '));
  CHECK_OK(sluice_writer_print_fixed(w, 7.0, 0));
  CHECK_RC(sluice_writer_print_fixed(w, 1.0, -1), EINVAL);
  CHECK_RC(sluice_writer_print_fixed(w, 1.0, 1075), EINVAL);
  CHECK(strstr(sluice_last_error(), "1075") != NULL);
  CHECK_OK(sluice_writer_close(w));
  if (holds(path.text,
            "0 -42 -9223372036854775808 9223372036854775807 18446744073709551615 0.1 1e+100 "
            "-2.5 3.14 -1.000 7") != 0)
    return 1;

  /* The largest precision: the smallest subnormal's every digit, longer than the buffer. */
  CHECK_OK(open_with_buffer(&w, path.text, 16));
  CHECK_OK(sluice_writer_print_fixed(w, 4.9406564584124654e-324, 1074));
  CHECK_OK(sluice_writer_close(w));
  size_t size = 0;
  char* text = c_read_all(path.text, &size);
  CHECK(text != NULL);
  char printed[1100];
  snprintf(printed, sizeof printed, "%.*f", 1074, 4.9406564584124654e-324);
  int same = c_check_bytes(__FILE__, __LINE__, "the subnormal", text, size, printed);
  free(text);
  return same ? 0 : 1;
}

/* Short output, output longer than the buffer, and a format vsnprintf fails. */
/* sluice_writer_vprintf, as a program's own printf-like function calls it. */
static int print_through_va_list(sluice_writer* w, const char* format, ...) {
  va_list arguments;
  va_start(arguments, format);
  int rc = sluice_writer_vprintf(w, format, arguments);
  va_end(arguments);
  return rc;
}

int c_writer_printf_also_longer_than_the_buffer(const char* dir) {
  c_path path = c_path_in(dir, "printf");
  sluice_writer* w = NULL;
  CHECK_OK(open_with_buffer(&w, path.text, 64));
  char long_text[1001];
  c_pattern(long_text, 1000, 5);
  long_text[1000] = '\0';
  CHECK_OK(sluice_writer_printf(w, "%d-%s|", 12, "ab"));
  CHECK_OK(sluice_writer_printf(w, "[%s]%05d", long_text, 42));
  CHECK_OK(sluice_writer_printf(w, "%s", ""));
  CHECK_OK(print_through_va_list(w, "<%s%c>", long_text, '!'));
  /* A wide character the C locale cannot convert: vsnprintf fails (EILSEQ). */
  static const wchar_t unconvertible[] = {(wchar_t)0x100, 0};
  CHECK_RC(sluice_writer_printf(w, "%ls", unconvertible), EINVAL);
  CHECK_OK(sluice_writer_close(w));
  char* expected = malloc(3000);
  CHECK(expected != NULL);
  snprintf(expected, 3000, "12-ab|[%s]00042<%s!>", long_text, long_text);
  int result = holds(path.text, expected);
  free(expected);
  return result;
}

int c_writer_reserve_and_commit(const char* dir) {
  c_path path = c_path_in(dir, "reserve");
  sluice_writer* w = NULL;
  CHECK_OK(open_with_buffer(&w, path.text, 64));
  char* room = NULL;
  size_t room_size = 0;
  CHECK_OK(sluice_writer_reserve(w, 10, &room, &room_size));
  CHECK(room != NULL);
  CHECK(room_size >= 10);
  memcpy(room, "helloXXXXX", 10);
  CHECK_OK(sluice_writer_commit(w, 5));
  CHECK_U64(sluice_writer_tell(w), 5);
  /* Past the room: refused, nothing accepted. */
  CHECK_OK(sluice_writer_reserve(w, 4, &room, &room_size));
  CHECK_RC(sluice_writer_commit(w, room_size + 1), EINVAL);
  CHECK_U64(sluice_writer_tell(w), 5);
  /* More than the buffer: it grows to hold it. */
  CHECK_OK(sluice_writer_reserve(w, 1000, &room, &room_size));
  CHECK(room_size >= 1000);
  memset(room, '-', 1000);
  room[999] = '!';
  CHECK_OK(sluice_writer_commit(w, 1000));
  CHECK_U64(sluice_writer_tell(w), 1005);
  CHECK_OK(sluice_writer_close(w));
  char expected[1006] = "hello";
  memset(expected + 5, '-', 999);
  expected[1004] = '!';
  expected[1005] = '\0';
  return holds(path.text, expected);
}

/* flush hands the bytes to the OS (another reader sees them), sync too;
   tell counts every byte accepted, buffered or not. */
int c_writer_flush_sync_and_tell(const char* dir) {
  c_path path = c_path_in(dir, "flush");
  sluice_writer* w = NULL;
  CHECK_OK(sluice_writer_open(&w, path.text, NULL));
  CHECK_U64(sluice_writer_tell(w), 0);
  CHECK_OK(sluice_writer_write(w, "first\n", 6));
  CHECK_U64(sluice_writer_tell(w), 6);
  CHECK_U64(c_file_size(path.text), 0); /* still buffered (256 KiB) */
  CHECK_OK(sluice_writer_flush(w));
  CHECK_U64(c_file_size(path.text), 6);
  CHECK_OK(sluice_writer_write(w, "second\n", 7));
  CHECK_OK(sluice_writer_sync(w));
  CHECK_U64(c_file_size(path.text), 13);
  CHECK_U64(sluice_writer_tell(w), 13);
  CHECK_OK(sluice_writer_flush(w)); /* nothing buffered: nothing to do */
  CHECK_OK(sluice_writer_close(w));
  return holds(path.text, "first\nsecond\n");
}

/* buffer_size: a buffer of 16 bytes goes to the OS when full; preallocate:
   one reservation, and the file ends at the bytes written. */
int c_writer_buffer_size_and_preallocate_options(const char* dir) {
  c_path path = c_path_in(dir, "sized");
  sluice_writer* w = NULL;
  CHECK_OK(open_with_buffer(&w, path.text, 16));
  CHECK_OK(sluice_writer_write(w, "0123456789abcdefg", 17));
  CHECK(c_file_size(path.text) >= 16);
  CHECK_OK(sluice_writer_close(w));

  CHECK_OK(c_fake_install());
  sluice_writer_options options;
  sluice_writer_options_init(&options);
  options.preallocate = 1 << 20;
  CHECK_OK(sluice_writer_open(&w, path.text, &options));
  CHECK_INT(c_fake_calls(C_FAKE_PREALLOCATE), 1);
  CHECK_OK(sluice_writer_write(w, "ten bytes!", 10));
  CHECK_OK(sluice_writer_close(w));
  c_fake_remove();
  CHECK_U64(c_file_size(path.text), 10);
  return holds(path.text, "ten bytes!");
}

/* The syncs each durability asks for, counted by the fake seam. */
int c_writer_durability_options(const char* dir) {
  static const int modes[] = {SLUICE_DURABILITY_NONE, SLUICE_DURABILITY_DATA_ON_CLOSE,
                              SLUICE_DURABILITY_ALL_ON_CLOSE, SLUICE_DURABILITY_WRITE_THROUGH};
  for (size_t i = 0; i < sizeof modes / sizeof modes[0]; ++i) {
    char name[32];
    snprintf(name, sizeof name, "durable%zu", i);
    c_path path = c_path_in(dir, name);
    sluice_writer_options options;
    sluice_writer_options_init(&options);
    options.durability = modes[i];
    options.buffer_size = 16;
    CHECK_OK(c_fake_install());
    sluice_writer* w = NULL;
    CHECK_OK(sluice_writer_open(&w, path.text, &options));
    const char* text = "forty bytes, two buffers and a half: more";
    for (const char* c = text; *c != '\0'; ++c) CHECK_OK(sluice_writer_put(w, *c));
    int syncs_before_close = c_fake_calls(C_FAKE_SYNC_DATA);
    CHECK_OK(sluice_writer_close(w));
    int data_syncs = c_fake_calls(C_FAKE_SYNC_DATA);
    int full_syncs = c_fake_calls(C_FAKE_SYNC_ALL);
    int directory_syncs = c_fake_calls(C_FAKE_SYNC_DIRECTORY);
    c_fake_remove();
    switch (modes[i]) {
      case SLUICE_DURABILITY_NONE: CHECK_INT(data_syncs + full_syncs + directory_syncs, 0); break;
      case SLUICE_DURABILITY_DATA_ON_CLOSE:
        CHECK_INT(syncs_before_close, 0);
        CHECK_INT(data_syncs, 1);
        break;
      case SLUICE_DURABILITY_ALL_ON_CLOSE:
        CHECK_INT(syncs_before_close, 0);
        CHECK_INT(full_syncs, 1);
        CHECK_INT(directory_syncs, 1); /* a new file: its directory too */
        break;
      default: /* write-through: a sync after each buffer written */
        CHECK(syncs_before_close >= 2);
        break;
    }
    if (holds(path.text, text) != 0) return 1;
  }
  return 0;
}

/* no_cache starts the writeback of each buffer written and drops the pages
   at close; direct writes past the page cache, where the filesystem allows. */
int c_writer_caching_options(const char* dir) {
  c_path path = c_path_in(dir, "cached");
  sluice_writer_options options;
  sluice_writer_options_init(&options);
  options.caching = SLUICE_CACHING_NO_CACHE;
  options.buffer_size = 4096;
  char data[10000];
  c_pattern(data, sizeof data - 1, 3);
  data[sizeof data - 1] = '\0';
  CHECK_OK(c_fake_install());
  sluice_writer* w = NULL;
  CHECK_OK(sluice_writer_open(&w, path.text, &options));
  CHECK_OK(sluice_writer_write(w, data, strlen(data)));
  CHECK_OK(sluice_writer_close(w));
  CHECK(c_fake_calls(C_FAKE_WRITEBACK) >= 1);
  CHECK(c_fake_calls(C_FAKE_DROP_CACHE) >= 1);
  c_fake_remove();
  if (holds(path.text, data) != 0) return 1;

  options.caching = SLUICE_CACHING_DIRECT;
  options.buffer_size = 0;
  int opened = sluice_writer_open(&w, path.text, &options);
  if (opened == EINVAL) { /* a filesystem that refuses O_DIRECT: the message says so */
    CHECK(strstr(sluice_last_error(), "O_DIRECT") != NULL);
    return 0;
  }
  CHECK_RC(opened, 0);
  CHECK_OK(sluice_writer_write(w, data, strlen(data)));
  CHECK_OK(sluice_writer_close(w));
  return holds(path.text, data);
}

/* The path holds the old file whole until close, then the new one. */
int c_writer_atomic_replace_option(const char* dir) {
  c_path path = c_path_in(dir, "replaced");
  CHECK_OK(c_write_all(path.text, "old", 3));
  sluice_writer_options options;
  sluice_writer_options_init(&options);
  options.atomic_replace = 1;
  options.buffer_size = 16;
  sluice_writer* w = NULL;
  CHECK_OK(sluice_writer_open(&w, path.text, &options));
  CHECK_OK(sluice_writer_write(w, "the new content, longer than the buffer", 39));
  CHECK_OK(sluice_writer_flush(w));
  if (holds(path.text, "old") != 0) return 1;
  CHECK_OK(sluice_writer_close(w));
  return holds(path.text, "the new content, longer than the buffer");
}

int c_writer_write_behind_option(const char* dir) {
  c_path path = c_path_in(dir, "behind");
  sluice_writer_options options;
  sluice_writer_options_init(&options);
  options.write_behind = 1;
  options.buffer_size = 4096;
  static char data[100001];
  c_pattern(data, sizeof data - 1, 9);
  sluice_writer* w = NULL;
  CHECK_OK(sluice_writer_open(&w, path.text, &options));
  for (size_t i = 0; i < sizeof data - 1; i += 1000)
    CHECK_OK(sluice_writer_write(w, data + i, 1000));
  CHECK_U64(sluice_writer_tell(w), sizeof data - 1);
  CHECK_OK(sluice_writer_close(w));
  return holds(path.text, data);
}

/* A borrowed descriptor is written from its position and left open; a pipe too. */
int c_writer_from_fd_borrows_a_file_and_a_pipe(const char* dir) {
  c_path path = c_path_in(dir, "borrowed");
  int fd = open(path.text, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  CHECK(fd >= 0);
  CHECK(write(fd, "abc", 3) == 3);
  sluice_writer* w = NULL;
  CHECK_OK(sluice_writer_from_fd(&w, fd, "the borrowed file", NULL));
  CHECK_OK(sluice_writer_write(w, "def", 3));
  CHECK_OK(sluice_writer_print_i64(w, 42));
  CHECK_OK(sluice_writer_close(w));
  CHECK(write(fd, "!", 1) == 1); /* still open */
  CHECK(close(fd) == 0);
  if (holds(path.text, "abcdef42!") != 0) return 1;

  int ends[2];
  CHECK(pipe(ends) == 0);
  sluice_writer_options options;
  sluice_writer_options_init(&options);
  options.buffer_size = 4;
  CHECK_OK(sluice_writer_from_fd(&w, ends[1], "the pipe", &options));
  CHECK_OK(sluice_writer_write(w, "through a pipe\n", 15));
  CHECK_U64(sluice_writer_tell(w), 15);
  CHECK_OK(sluice_writer_close(w));
  CHECK(close(ends[1]) == 0); /* still open: the writer borrowed it */
  char got[64];
  ssize_t n = read(ends[0], got, sizeof got);
  close(ends[0]);
  CHECK_BYTES(got, (size_t)(n < 0 ? 0 : n), "through a pipe\n");
  return 0;
}

/* Nothing is created, *out is NULL, and the message names the path. */
int c_writer_open_failure_names_the_path(const char* dir) {
  c_path path = c_path_in(dir, "missing/out");
  sluice_writer* w = (sluice_writer*)&path; /* must be set to NULL */
  CHECK_RC(sluice_writer_open(&w, path.text, NULL), ENOENT);
  CHECK(w == NULL);
  char expected[1200];
  snprintf(expected, sizeof expected, "sluice: open '%s': %s", path.text, strerror(ENOENT));
  CHECK_ERROR(expected);
  return 0;
}

/* Memory no buffer can hold: ENOMEM and the message, nothing created or
   accepted, and the writer goes on. */
int c_writer_out_of_memory_is_enomem(const char* dir) {
  c_path path = c_path_in(dir, "huge_buffer");
  sluice_writer_options options;
  sluice_writer_options_init(&options);
  options.buffer_size = SIZE_MAX - 8;
  sluice_writer* w = (sluice_writer*)&path; /* must be set to NULL */
  CHECK_RC(sluice_writer_open(&w, path.text, &options), ENOMEM);
  CHECK(w == NULL);
  CHECK_ERROR("sluice: out of memory");
  CHECK(access(path.text, F_OK) != 0);

  path = c_path_in(dir, "huge_reserve");
  CHECK_OK(open_with_buffer(&w, path.text, 16));
  CHECK_OK(sluice_writer_write(w, "abc", 3));
  char* room = NULL;
  size_t room_size = 0;
  CHECK_RC(sluice_writer_reserve(w, SIZE_MAX, &room, &room_size), ENOMEM);
  CHECK(room == NULL);
  CHECK_ERROR("sluice: out of memory");
  CHECK_U64(sluice_writer_tell(w), 3);
  CHECK_OK(sluice_writer_write(w, "def", 3));
  CHECK_OK(sluice_writer_close(w));
  return holds(path.text, "abcdef");
}

/* destroy flushes and closes as close does; with nothing lost, the handler
   hears nothing. */
int c_writer_destroy_flushes_and_closes(const char* dir) {
  c_path path = c_path_in(dir, "destroyed");
  sluice_writer* w = NULL;
  CHECK_OK(sluice_writer_open(&w, path.text, NULL));
  CHECK_OK(sluice_writer_write(w, "kept", 4));
  c_reports_capture();
  sluice_writer_destroy(w);
  sluice_writer_destroy(NULL);
  c_reports_release();
  CHECK_INT(c_reports_count(), 0);
  return holds(path.text, "kept");
}
