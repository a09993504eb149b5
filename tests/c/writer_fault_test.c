/* The C writer under faults injected through the seam: ENOSPC and EIO stick
   with their message, a failed sync poisons, EINTR and short writes do not
   show, and what destroy could not write is told to the handler. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c_check.h"
#include "c_support.h"
#include "c_tests.h"
#include "support/c_fake_sys.h"

static int open_with_buffer(sluice_writer** out, const char* path, size_t buffer_size) {
  sluice_writer_options options;
  sluice_writer_options_init(&options);
  options.buffer_size = buffer_size;
  return sluice_writer_open(out, path, &options);
}

/* The file at `path` holds exactly the first `size` bytes of `data`. */
static int holds_prefix(const char* path, const char* data, size_t size) {
  size_t got = 0;
  char* text = c_read_all(path, &got);
  CHECK(text != NULL);
  int same = got == size && memcmp(text, data, size) == 0;
  free(text);
  if (!same)
    return c_check_fail(__FILE__, __LINE__, "%s holds %zu bytes, expected the first %zu written",
                        path, got, size);
  return 0;
}

/* Every call of `w` returns `error` with the message `expected`, close
   too (which frees `w`), and none reaches the OS again. */
static int expect_stuck_until_closed(sluice_writer* w, int error, const char* expected) {
  int writes = c_fake_calls(C_FAKE_WRITE_AT);
  int syncs = c_fake_calls(C_FAKE_SYNC_DATA);
  static char large[1 << 16];
  char* room = NULL;
  size_t room_size = 0;
  CHECK_RC(sluice_writer_put(w, 'x'), error);
  CHECK_ERROR(expected);
  CHECK_RC((sluice_writer_put)(w, 'x'), error);
  CHECK_ERROR(expected);
  CHECK_RC(sluice_writer_write(w, "x", 1), error);
  CHECK_ERROR(expected);
  CHECK_RC((sluice_writer_write)(w, "x", 1), error);
  CHECK_RC(sluice_writer_write(w, large, sizeof large), error);
  CHECK_ERROR(expected);
  CHECK_RC(sluice_writer_print_i64(w, -1), error);
  CHECK_RC(sluice_writer_print_u64(w, 1), error);
  CHECK_RC(sluice_writer_print_double(w, 0.5), error);
  CHECK_RC(sluice_writer_print_fixed(w, 0.5, 3), error);
  CHECK_RC(sluice_writer_printf(w, "%s", "text"), error);
  CHECK_ERROR(expected);
  CHECK_RC(sluice_writer_reserve(w, 8, &room, &room_size), error);
  CHECK_ERROR(expected);
  CHECK_RC(sluice_writer_flush(w), error);
  CHECK_ERROR(expected);
  CHECK_RC(sluice_writer_sync(w), error);
  CHECK_ERROR(expected);
  CHECK_RC(sluice_writer_close(w), error);
  CHECK_ERROR(expected);
  CHECK_INT(c_fake_calls(C_FAKE_WRITE_AT), writes);
  CHECK_INT(c_fake_calls(C_FAKE_SYNC_DATA), syncs);
  return 0;
}

/* The 2nd buffer's write meets a full disk: the exact message, the file
   holds the first buffer, and the error sticks to every call and close. */
int c_writer_fault_enospc_sticks_with_its_message(const char* dir) {
  c_path path = c_path_in(dir, "full");
  static char data[8193];
  c_pattern(data, sizeof data, 1);
  sluice_writer* w = NULL;
  CHECK_OK(open_with_buffer(&w, path.text, 4096));
  CHECK_OK(c_fake_install());
  c_fake_fail(C_FAKE_WRITE_AT, 2, ENOSPC);
  for (size_t i = 0; i < 8192; ++i) CHECK_OK(sluice_writer_put(w, data[i]));
  CHECK_RC(sluice_writer_put(w, data[8192]), ENOSPC);
  char expected[1200];
  snprintf(expected, sizeof expected, "sluice: write '%s' at offset 4096: %s", path.text,
           strerror(ENOSPC));
  CHECK_ERROR(expected);
  if (holds_prefix(path.text, data, 4096) != 0) return 1;
  if (expect_stuck_until_closed(w, ENOSPC, expected) != 0) return 1;
  c_fake_remove();
  return holds_prefix(path.text, data, 4096);
}

/* EIO on the flush: nothing written, the same stickiness. */
int c_writer_fault_eio_on_write_sticks(const char* dir) {
  c_path path = c_path_in(dir, "eio");
  sluice_writer* w = NULL;
  CHECK_OK(open_with_buffer(&w, path.text, 64));
  CHECK_OK(sluice_writer_write(w, "ten bytes!", 10));
  CHECK_OK(c_fake_install());
  c_fake_fail(C_FAKE_WRITE_AT, 1, EIO);
  CHECK_RC(sluice_writer_flush(w), EIO);
  char expected[1200];
  snprintf(expected, sizeof expected, "sluice: write '%s' at offset 0: %s", path.text,
           strerror(EIO));
  CHECK_ERROR(expected);
  CHECK_U64(c_file_size(path.text), 0);
  if (expect_stuck_until_closed(w, EIO, expected) != 0) return 1;
  c_fake_remove();
  CHECK_U64(c_file_size(path.text), 0);
  return 0;
}

/* A failed fdatasync poisons the writer: never retried, every later call
   returns it, close too. */
int c_writer_fault_failed_sync_poisons(const char* dir) {
  c_path path = c_path_in(dir, "poisoned");
  sluice_writer* w = NULL;
  CHECK_OK(open_with_buffer(&w, path.text, 64));
  CHECK_OK(sluice_writer_write(w, "data", 4));
  CHECK_OK(c_fake_install());
  c_fake_fail(C_FAKE_SYNC_DATA, 1, EIO);
  CHECK_RC(sluice_writer_sync(w), EIO);
  char expected[1200];
  snprintf(expected, sizeof expected, "sluice: fdatasync '%s': %s", path.text, strerror(EIO));
  CHECK_ERROR(expected);
  CHECK_U64(c_file_size(path.text), 4); /* written, not known to be durable */
  if (expect_stuck_until_closed(w, EIO, expected) != 0) return 1;
  CHECK_INT(c_fake_calls(C_FAKE_SYNC_DATA), 1); /* never retried */
  c_fake_remove();
  return 0;
}

/* Writes `count` pieces of growing sizes (around a 100-byte buffer) into
   `w`, a number and a sync among them; the text written goes to `model`. */
static int write_pieces(sluice_writer* w, char* model, size_t* size) {
  static const size_t sizes[] = {1, 30, 99, 100, 101, 250, 5000, 7};
  *size = 0;
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
    c_pattern(model + *size, sizes[i], (unsigned)i);
    CHECK_OK(sluice_writer_write(w, model + *size, sizes[i]));
    *size += sizes[i];
    if (i == 4) CHECK_OK(sluice_writer_sync(w));
  }
  CHECK_OK(sluice_writer_print_i64(w, -42));
  memcpy(model + *size, "-42", 3);
  *size += 3;
  return 0;
}

/* EINTR on every write, to a file sluice opened (pwritev) and to a
   borrowed descriptor (writev): retried, the file whole. */
int c_writer_fault_eintr_on_every_write_is_retried(const char* dir) {
  static char model[6000];
  size_t size = 0;
  c_path path = c_path_in(dir, "interrupted");
  sluice_writer* w = NULL;
  CHECK_OK(open_with_buffer(&w, path.text, 100));
  CHECK_OK(c_fake_install());
  c_fake_interrupt_every_write();
  if (write_pieces(w, model, &size) != 0) return 1;
  CHECK_OK(sluice_writer_close(w));
  int writes = c_fake_calls(C_FAKE_WRITE_AT);
  CHECK(writes >= 8);
  CHECK_INT(writes % 2, 0); /* each one interrupted once, then again */
  if (holds_prefix(path.text, model, size) != 0) return 1;

  c_path borrowed = c_path_in(dir, "borrowed");
  int fd = open(borrowed.text, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  CHECK(fd >= 0);
  sluice_writer_options options;
  sluice_writer_options_init(&options);
  options.buffer_size = 100;
  CHECK_OK(sluice_writer_from_fd(&w, fd, "the borrowed file", &options));
  if (write_pieces(w, model, &size) != 0) return 1;
  CHECK_OK(sluice_writer_close(w));
  CHECK(close(fd) == 0);
  CHECK(c_fake_calls(C_FAKE_WRITE_STREAM) >= 8);
  c_fake_remove();
  return holds_prefix(borrowed.text, model, size);
}

/* Writes that transfer less than asked (0, 1 and 10 bytes, and the rest
   split) are continued: the file whole. */
int c_writer_fault_short_writes_are_continued(const char* dir) {
  static char model[6000];
  size_t size = 0;
  c_path path = c_path_in(dir, "short");
  sluice_writer* w = NULL;
  CHECK_OK(open_with_buffer(&w, path.text, 100));
  CHECK_OK(c_fake_install());
  c_fake_short_transfer(C_FAKE_WRITE_AT, 1, 10);
  c_fake_short_transfer(C_FAKE_WRITE_AT, 3, 1);
  c_fake_short_transfer(C_FAKE_WRITE_AT, 5, 0);
  c_fake_short_transfer(C_FAKE_WRITE_AT, 7, 4000);
  if (write_pieces(w, model, &size) != 0) return 1;
  CHECK_OK(sluice_writer_close(w));
  CHECK(c_fake_calls(C_FAKE_WRITE_AT) >= 8);
  if (holds_prefix(path.text, model, size) != 0) return 1;

  c_path borrowed = c_path_in(dir, "borrowed");
  int fd = open(borrowed.text, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  CHECK(fd >= 0);
  sluice_writer_options options;
  sluice_writer_options_init(&options);
  options.buffer_size = 100;
  CHECK_OK(sluice_writer_from_fd(&w, fd, "the borrowed file", &options));
  c_fake_short_transfer(C_FAKE_WRITE_STREAM, 1, 10);
  c_fake_short_transfer(C_FAKE_WRITE_STREAM, 2, 1);
  if (write_pieces(w, model, &size) != 0) return 1;
  CHECK_OK(sluice_writer_close(w));
  CHECK(close(fd) == 0);
  c_fake_remove();
  return holds_prefix(borrowed.text, model, size);
}

/* destroy flushes 30 of 70 bytes, then meets EIO: the handler is told, in
   the destructor's form, how many bytes were lost. */
int c_writer_fault_destroy_tells_the_handler_what_was_lost(const char* dir) {
  c_path path = c_path_in(dir, "lost");
  char data[70];
  c_pattern(data, sizeof data, 7);
  sluice_writer* w = NULL;
  CHECK_OK(open_with_buffer(&w, path.text, 100));
  CHECK_OK(sluice_writer_write(w, data, sizeof data));
  CHECK_OK(c_fake_install());
  c_fake_short_transfer(C_FAKE_WRITE_AT, 1, 30);
  c_fake_fail(C_FAKE_WRITE_AT, 2, EIO);
  c_reports_capture();
  sluice_writer_destroy(w);
  c_reports_release();
  c_fake_remove();
  CHECK_INT(c_reports_count(), 1);
  CHECK_INT(c_reports_error(), EIO);
  char expected[1200];
  snprintf(expected, sizeof expected,
           "sluice: close '%s' in its destructor, 40 bytes lost: write at offset 30: %s", path.text,
           strerror(EIO));
  CHECK_STR(c_reports_message(), expected);
  return holds_prefix(path.text, data, 30);
}

/* A failed close(2) is returned, naming the path, and the handle is freed
   all the same; every byte had been handed over before it. */
int c_writer_fault_a_failed_close_is_returned(const char* dir) {
  c_path path = c_path_in(dir, "closed");
  sluice_writer* w = NULL;
  CHECK_OK(open_with_buffer(&w, path.text, 64));
  CHECK_OK(sluice_writer_write(w, "complete", 8));
  CHECK_OK(c_fake_install());
  c_fake_fail(C_FAKE_CLOSE, 1, EIO);
  CHECK_RC(sluice_writer_close(w), EIO);
  c_fake_remove();
  char expected[1200];
  snprintf(expected, sizeof expected, "sluice: close '%s': %s", path.text, strerror(EIO));
  CHECK_ERROR(expected);
  return holds_prefix(path.text, "complete", 8);
}
