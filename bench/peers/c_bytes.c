/* sluice-bench "bytes" from C: one byte per call through sluice's C API and
   through stdio, each loop written as a C program writes it. */
#define _POSIX_C_SOURCE 200809L /* putc_unlocked */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "peers/c_rows.h"
#include "peers/stdio_unlocked.h"

#define PATTERN_MASK (C_ROWS_PATTERN_PERIOD - 1)

/* The loop takes the writer as a parameter, as a serializer's function
   does: then it stays in a register. Looping on the variable whose address
   sluice_writer_open took costs a load of it from memory per byte (a char
   store may alias it) and keeps its NULL check in the loop (docs/performance.md). */
static void put_pattern(sluice_writer* out, const char* pattern, uint64_t size) {
  for (uint64_t i = 0; i < size; ++i)
    if (sluice_writer_put(out, pattern[i & PATTERN_MASK]) != 0) return;
}

int c_rows_sluice_put(const char* path, const char* pattern, uint64_t size, size_t buffer_size,
                      int sync) {
  sluice_writer_options options;
  sluice_writer_options_init(&options);
  options.buffer_size = buffer_size;
  if (sync) options.durability = SLUICE_DURABILITY_DATA_ON_CLOSE;
  sluice_writer* out;
  int error = sluice_writer_open(&out, path, &options);
  if (error != 0) return error;
  put_pattern(out, pattern, size);
  return sluice_writer_close(out); /* a put's error again (it sticks), or close's */
}

/* A stdio stream and the setvbuf buffer it uses, if any. */
struct stdio_out {
  FILE* file;
  char* buffer;
};

static int stdio_open(struct stdio_out* out, const char* path, size_t buffer_size,
                      const char** call) {
  out->buffer = NULL;
  out->file = fopen(path, "wb");
  if (out->file == NULL) {
    *call = "fopen";
    return errno;
  }
  if (buffer_size == 0) return 0;
  out->buffer = malloc(buffer_size);
  if (out->buffer == NULL || setvbuf(out->file, out->buffer, _IOFBF, buffer_size) != 0) {
    fclose(out->file);
    free(out->buffer);
    *call = "setvbuf";
    return ENOMEM;
  }
  return 0;
}

/* fflush, fdatasync when `sync`, fclose; the stream's error flag stands for
   the check of every putc, as it sticks. */
static int stdio_finish(struct stdio_out* out, int sync, const char** call) {
  int error = 0;
  if (fflush(out->file) != 0 || ferror(out->file)) {
    error = errno != 0 ? errno : EIO;
    *call = "putc";
  } else if (sync && (error = c_rows_sync_stream(out->file)) != 0) {
    *call = "fdatasync";
  }
  if (fclose(out->file) != 0 && error == 0) {
    error = errno;
    *call = "fclose";
  }
  free(out->buffer);
  return error;
}

int c_rows_stdio_putc(const char* path, const char* pattern, uint64_t size, size_t buffer_size,
                      int sync, const char** call) {
  struct stdio_out out;
  int error = stdio_open(&out, path, buffer_size, call);
  if (error != 0) return error;
  for (uint64_t i = 0; i < size; ++i) putc(pattern[i & PATTERN_MASK], out.file);
  return stdio_finish(&out, sync, call);
}

int c_rows_stdio_putc_unlocked(const char* path, const char* pattern, uint64_t size,
                               size_t buffer_size, int sync, const char** call) {
  struct stdio_out out;
  int error = stdio_open(&out, path, buffer_size, call);
  if (error != 0) return error;
  for (uint64_t i = 0; i < size; ++i)
    SLUICE_BENCH_PUTC_UNLOCKED(pattern[i & PATTERN_MASK], out.file);
  return stdio_finish(&out, sync, call);
}
