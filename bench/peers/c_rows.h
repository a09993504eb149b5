/* sluice-bench: the rows written in C, compiled as C11, so that what they
   measure is what a C program gets: sluice's C API (<sluice/c.h>, its inline
   sluice_writer_put included) and stdio called from C. The scenarios call
   them through this header (peers/c_rows.hpp turns a failure into an
   exception). Every call returns 0 or the errno value of the first failure:
   for a sluice call sluice_last_error() then has the message, for a stdio or
   POSIX call *call names it. */
#ifndef SLUICE_BENCH_C_ROWS_H
#define SLUICE_BENCH_C_ROWS_H

#include <sluice/c.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The period of the bytes scenario's pattern (core/content.hpp's
   pattern_period): the loops index it with a mask, as the C++ rows do. */
#define C_ROWS_PATTERN_PERIOD 4096

/* ---- bytes: the first `size` bytes of the endless `pattern`, one call per
   byte, into a new file at `path`, fdatasync'ed before the return when
   `sync`. */

/* sluice_writer_open with a buffer of `buffer_size` (0: sluice's default),
   sluice_writer_put per byte (its return checked), sluice_writer_close
   (with durability DATA_ON_CLOSE when `sync`). */
int c_rows_sluice_put(const char* path, const char* pattern, uint64_t size, size_t buffer_size,
                      int sync);

/* fopen("wb"), a setvbuf buffer of `buffer_size` (0: stdio's own, as a
   program that never calls setvbuf gets), putc per byte (it takes the
   stream's lock each time), then fflush, fdatasync when `sync`, fclose:
   every one checked, ferror too. */
int c_rows_stdio_putc(const char* path, const char* pattern, uint64_t size, size_t buffer_size,
                      int sync, const char** call);
/* The same with putc_unlocked (POSIX; _putc_nolock on Windows:
   peers/stdio_unlocked.h), no lock per byte. */
int c_rows_stdio_putc_unlocked(const char* path, const char* pattern, uint64_t size,
                               size_t buffer_size, int sync, const char** call);

/* fdatasync (FlushFileBuffers on Windows) of the file under the stream
   `file`, already flushed: 0, or the errno value (EIO for a Windows error);
   peers/stdio_file.cpp, through core/raw_calls.hpp. */
int c_rows_sync_stream(FILE* file);

/* ---- journal: opened and closed by the scenario through <sluice/c.h> --- */

/* The records of a transaction (scenarios/transaction.hpp's journal_records). */
#define C_ROWS_JOURNAL_RECORDS 100

/* One transaction: the C_ROWS_JOURNAL_RECORDS records of `record_size` bytes
   each, one after the other at `records`, appended in one
   sluice_journal_append_many, then sluice_journal_commit of the last lsn:
   durable on return. Any number of threads at once (group commit). */
int c_rows_journal_transaction(sluice_journal* journal, const char* records, size_t record_size);

#ifdef __cplusplus
}
#endif

#endif /* SLUICE_BENCH_C_ROWS_H */
