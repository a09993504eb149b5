/* sluice/c.h - sluice for C programs and other languages' bindings.
 *
 * The writer, the reader and the journal behind a C ABI (C99 and later, and
 * C++): opaque handles, options as structs that carry their own size, and
 * no exception ever crossing the boundary.
 *
 * Errors. Every call that can fail returns 0 on success, or a positive errno
 * value (ENOSPC, EIO, ENOENT...; ENOMEM when memory runs out), or a sentinel
 * its comment names (SLUICE_EOF). On failure, sluice_last_error() returns the
 * message the C++ library carries, naming the operation, the path and, for
 * transfers, the offset:
 *   sluice: write 'out.bin' at offset 4096: No space left on device
 * Failures stick as in C++ (<sluice/error.hpp>): after a failed write every
 * later call of that writer returns the same error, and a failed sync poisons
 * a writer or a journal for good; no retry is ever offered as recovery.
 * A NULL handle is refused with EINVAL; *_close(NULL) does nothing.
 *
 * Threads. A writer and a reader are used by one thread at a time; a journal
 * by any number at once (group commit), as in C++. sluice_last_error() is
 * per thread.
 *
 * ABI policy: docs/c-api.md. In short: within a major version, functions are
 * only added, never changed or removed; option structs only grow at their end
 * (their `size` field says which fields a caller knows); enum values are never
 * renumbered. struct sluice_writer_window is the one exception: it is what the
 * inline sluice_writer_put and sluice_writer_write read, and may change with
 * the major version only.
 *
 * Example:
 *   sluice_writer* out;
 *   if (sluice_writer_open(&out, "numbers.txt", NULL) != 0) {
 *     fprintf(stderr, "%s\n", sluice_last_error());
 *     return 1;
 *   }
 *   for (int i = 0; i < 1000; ++i) {
 *     sluice_writer_print_i64(out, i);
 *     sluice_writer_put(out, '\n');
 *   }
 *   if (sluice_writer_close(out) != 0)  // every error is seen; out is freed
 *     fprintf(stderr, "%s\n", sluice_last_error());
 */
#ifndef SLUICE_C_H
#define SLUICE_C_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define SLUICE_PRINTF_FORMAT(format_index, first_arg) \
  __attribute__((format(printf, format_index, first_arg)))
#else
#define SLUICE_PRINTF_FORMAT(format_index, first_arg)
#endif

/* Returned at the end of the input: by sluice_reader_read_line, the reader's
   number calls and sluice_reader_read, and by sluice_journal_cursor_next.
   Negative, so never an errno value. */
#define SLUICE_EOF (-1)

/* The message of the last call that failed on this thread, or "" if none has.
   Successful calls leave it as it is (as errno). Valid until the next failing
   call on this thread. Never NULL. */
const char* sluice_last_error(void);

/* Called when a writer, reader or journal is destroyed without close() (or
   freed after a close() whose closing step failed) and something was lost or
   not made durable, with the errno value and a one-line message:
     sluice: close 'a' in its destructor, 40 bytes lost: write at offset 80: ...
   NULL restores the default, which prints the message on stderr. Returns the
   handler it replaces (NULL for the default). Thread-safe. The handler must
   not call back into sluice. */
typedef void (*sluice_error_handler)(int error, const char* message);
sluice_error_handler sluice_set_error_handler(sluice_error_handler handler);

/* ---- Writer ------------------------------------------------------------ */

typedef struct sluice_writer sluice_writer;

/* writer options: durability (the C++ durability_mode). */
enum sluice_durability {
  SLUICE_DURABILITY_NONE = 0,      /* close() hands the bytes to the OS */
  SLUICE_DURABILITY_DATA_ON_CLOSE, /* close() returns after fdatasync */
  SLUICE_DURABILITY_ALL_ON_CLOSE,  /* fsync, and the directory of a new file */
  SLUICE_DURABILITY_WRITE_THROUGH  /* fdatasync after every write to the OS */
};

/* writer and reader options: caching (the C++ caching_mode). */
enum sluice_caching {
  SLUICE_CACHING_NORMAL = 0, /* the page cache as usual */
  SLUICE_CACHING_NO_CACHE,   /* keep a large file from flooding the page cache */
  SLUICE_CACHING_DIRECT      /* O_DIRECT, past the page cache */
};

/* How a writer buffers, syncs and caches. Fill it with
   sluice_writer_options_init, then change the fields wanted; the fields mean
   what the C++ writer_options' fields of the same names mean
   (<sluice/writer.hpp>: each one's cost and failure). */
typedef struct sluice_writer_options {
  size_t size;          /* sizeof(sluice_writer_options), set by _init */
  size_t buffer_size;   /* 0: the default, 256 KiB (1 MiB with direct) */
  uint64_t preallocate; /* bytes to reserve on disk up front; 0: none */
  int durability;       /* enum sluice_durability; default NONE */
  int caching;          /* enum sluice_caching; default NORMAL */
  int atomic_replace;   /* nonzero: the path holds the old or the new file whole */
  int write_behind;     /* nonzero: write one buffer while the next fills */
} sluice_writer_options;

/* Sets every field to its default and `size` to sizeof(*options). */
void sluice_writer_options_init(sluice_writer_options* options);

/* Creates or truncates `path` and returns a writer on it in *out (NULL on
   failure). `options` NULL: the defaults. Errors as the C++ writer(path):
   nothing is accepted or created when it fails; EINVAL for options whose
   size is 0 or whose values are out of range. */
int sluice_writer_open(sluice_writer** out, const char* path, const sluice_writer_options* options);

/* A writer on the open descriptor `fd`, from its current position, borrowed:
   sluice_writer_close leaves `fd` open. `name` names it in messages
   ("standard output"). For standard output: sluice_writer_from_fd(&out, 1,
   "standard output", NULL). Options as sluice_writer_open (no direct, no
   atomic_replace: EINVAL). On Windows `fd` is a C runtime descriptor too
   (0, 1 and 2 work as everywhere; _open_osfhandle makes one of a HANDLE):
   the writer uses the HANDLE _get_osfhandle gives for it. */
int sluice_writer_from_fd(sluice_writer** out, int fd, const char* name,
                          const sluice_writer_options* options);

/* The part of a writer the inline calls below read: the room left in its
   buffer, [next, end). Not for programs to touch. */
struct sluice_writer_window {
  char* next;
  char* end;
};

/* Writes one byte. Inline (a macro, as getc is): a bounds check and a store;
   the exported function of the same name (taken by `(sluice_writer_put)(w,
   c)` or a binding) does the rest, a full buffer going to the OS on the way. */
int sluice_writer_put(sluice_writer* writer, char c);

/* Copies `size` bytes after the bytes buffered. Inline where they fit in the
   buffer's room (a bounds check and a memcpy), like sluice_writer_put; a
   larger write goes out with the buffered bytes in one pwritev, uncopied.
   Errors: the first failure sticks (the file then holds exactly the bytes
   before the failure's offset; the rest stays buffered). */
int sluice_writer_write(sluice_writer* writer, const void* data, size_t size);

/* Numbers as text: integers in decimal, doubles in the shortest form that
   reads back as the same double ("0.1", "1e+100"), or with `precision`
   digits after the point ("%.*f"; precision 0 to 1074, else EINVAL). */
int sluice_writer_print_i64(sluice_writer* writer, int64_t value);
int sluice_writer_print_u64(sluice_writer* writer, uint64_t value);
int sluice_writer_print_double(sluice_writer* writer, double value);
int sluice_writer_print_fixed(sluice_writer* writer, double value, int precision);

/* printf-style formatting, straight into the buffer (vsnprintf). Slower than
   the typed calls above (it parses the format each time, and follows the C
   locale's rules), and for the same reason no faster than fprintf's
   formatting: use it for the odd line, the typed calls in loops. EINVAL if
   vsnprintf fails (an invalid format). */
int sluice_writer_printf(sluice_writer* writer, const char* format, ...) SLUICE_PRINTF_FORMAT(2, 3);
/* The same with a va_list, as vfprintf. */
int sluice_writer_vprintf(sluice_writer* writer, const char* format, va_list args)
    SLUICE_PRINTF_FORMAT(2, 0);

/* Room of at least `n` bytes in the buffer, flushing first if needed, for
   formatting straight into it: *room and *room_size (>= n) say where and how
   much. Nothing is written until sluice_writer_commit(writer, k) accepts the
   first k bytes. The room stays valid until the next call on the writer
   other than commit. An `n` larger than the buffer grows it (ENOMEM if no
   buffer can hold it). */
int sluice_writer_reserve(sluice_writer* writer, size_t n, char** room, size_t* room_size);
/* Accepts the first k bytes of the last reserve's room; EINVAL if k is more
   than that room. */
int sluice_writer_commit(sluice_writer* writer, size_t k);

/* Bytes accepted so far (written or buffered), from the position the file
   had when the writer took it. No system call. 0 for NULL. */
uint64_t sluice_writer_tell(const sluice_writer* writer);

/* Hands every buffered byte to the OS (survives a crash of the process). */
int sluice_writer_flush(sluice_writer* writer);
/* Flushes, then fdatasync: durable on return. A failure poisons the writer. */
int sluice_writer_sync(sluice_writer* writer);

/* Flushes, syncs as `durability` says, closes, and frees the writer whatever
   happens: the handle is gone on return, 0 or not. Returns every error: a
   sticky one, a failed sync, a failed close(2). */
int sluice_writer_close(sluice_writer* writer);

/* Frees the writer without closing it first, as the C++ destructor does: it
   still flushes and closes, but reports a failure (and any byte lost) through
   the error handler, not to the caller. For cleanup paths after an error. */
void sluice_writer_destroy(sluice_writer* writer);

/* ---- Reader ------------------------------------------------------------ */

typedef struct sluice_reader sluice_reader;

/* reader options: what ends a line. */
enum sluice_line_end {
  SLUICE_LINE_END_LF = 0, /* "\n"; a '\r' before it stays in the line */
  SLUICE_LINE_END_CRLF    /* "\n", and a '\r' just before it is dropped too */
};

/* How a reader buffers and caches; fields as the C++ reader_options'
   (<sluice/reader.hpp>). Fill it with sluice_reader_options_init. */
typedef struct sluice_reader_options {
  size_t size;        /* sizeof(sluice_reader_options), set by _init */
  size_t buffer_size; /* 0: the default, 1 MiB */
  size_t max_line;    /* the longest line read_line returns; default 1 MiB */
  int line_end;       /* enum sluice_line_end; default LF */
  int caching;        /* enum sluice_caching; default NORMAL */
} sluice_reader_options;

void sluice_reader_options_init(sluice_reader_options* options);

/* Opens `path` for reading (a regular file, a FIFO, a device). `options`
   NULL: the defaults. */
int sluice_reader_open(sluice_reader** out, const char* path, const sluice_reader_options* options);
/* A reader on the open descriptor `fd` (a pipe, standard input: fd 0),
   borrowed: sluice_reader_close leaves it open. `name` names it in
   messages. On Windows, a C runtime descriptor as for
   sluice_writer_from_fd. */
int sluice_reader_from_fd(sluice_reader** out, int fd, const char* name,
                          const sluice_reader_options* options);

/* The next line, without its line end, in *line and *size: valid until the
   next call on the reader. A last line without a newline is returned too.
   Returns 0 with a line, SLUICE_EOF at the end, EMSGSIZE for a line longer
   than max_line (the reader stays at its start: sluice_reader_skip_line goes
   past it), or another errno value. Zero-copy where the line is whole in the
   buffer. */
int sluice_reader_read_line(sluice_reader* reader, const char** line, size_t* size);
/* Goes past the next line, however long; SLUICE_EOF at the end. */
int sluice_reader_skip_line(sluice_reader* reader);

/* Exactly `size` bytes into `data`; SLUICE_EOF if the input ends first (the
   bytes before its end are in `data`: sluice_reader_tell says how many). A
   large request goes straight into `data`, past the buffer. */
int sluice_reader_read(sluice_reader* reader, void* data, size_t size);
/* Up to `size` bytes, at least one; *got says how many. SLUICE_EOF (and *got
   0) at the end. */
int sluice_reader_read_some(sluice_reader* reader, void* data, size_t size, size_t* got);

/* The buffered bytes from the position, at least `n` of them (fewer only at
   the end of the input; *size 0 there), without consuming them: *data stays
   valid until the next call other than consume. */
int sluice_reader_peek(sluice_reader* reader, size_t n, const void** data, size_t* size);
/* Consumes `n` bytes of what peek returned; EINVAL past them. */
int sluice_reader_consume(sluice_reader* reader, size_t n);

/* The number at the position, up to `terminator` (consumed too; '\n' counts
   a line): "12,7\n" is read by read_i64(r, ',') then read_i64(r, '\n').
   Exact and locale-free: a double printed by sluice_writer_print_double
   reads back bit for bit. Returns EINVAL for text that is not a number of
   the type, ERANGE for one out of its range (the message names the text,
   the line and the offset), SLUICE_EOF at the end of the input. */
int sluice_reader_read_i64(sluice_reader* reader, char terminator, int64_t* value);
int sluice_reader_read_u64(sluice_reader* reader, char terminator, uint64_t* value);
int sluice_reader_read_double(sluice_reader* reader, char terminator, double* value);

/* Bytes consumed so far. No system call. 0 for NULL. */
uint64_t sluice_reader_tell(const sluice_reader* reader);

/* Closes and frees the reader whatever happens; returns a close error. */
int sluice_reader_close(sluice_reader* reader);

/* ---- Numbers ----------------------------------------------------------- */

/* The whole of text[0, size) as a number: EINVAL for text that is not one
   (a sign where none goes, spaces, a trailing byte), ERANGE for one out of
   range; sluice_last_error() then quotes the text. */
int sluice_parse_i64(const char* text, size_t size, int64_t* value);
int sluice_parse_u64(const char* text, size_t size, uint64_t* value);
int sluice_parse_double(const char* text, size_t size, double* value);

/* ---- Journal ----------------------------------------------------------- */

typedef struct sluice_journal sluice_journal;
typedef struct sluice_journal_cursor sluice_journal_cursor;

/* journal options: what open does with damage (the C++ recovery_mode). */
enum sluice_recovery {
  SLUICE_RECOVERY_TOLERATE_TORN_TAIL = 0, /* cut a torn tail, refuse other damage */
  SLUICE_RECOVERY_ABSOLUTE_CONSISTENCY,   /* refuse any damage */
  SLUICE_RECOVERY_SALVAGE                 /* keep the longest valid prefix */
};

/* How a journal is opened and written; fields as the C++ journal_options'
   (<sluice/journal.hpp>). Fill it with sluice_journal_options_init. */
typedef struct sluice_journal_options {
  size_t size;               /* sizeof(sluice_journal_options), set by _init */
  uint64_t segment_size;     /* default 64 MiB */
  int recovery;              /* enum sluice_recovery; default TOLERATE_TORN_TAIL */
  int zero_fill;             /* nonzero: write new segments full of zeros */
  unsigned concurrent_syncs; /* 1 (default) or 2 */
  int reuse_segments;        /* nonzero: truncate_before keeps a spare segment */
  int read_only;             /* nonzero: open for reading only */
} sluice_journal_options;

void sluice_journal_options_init(sluice_journal_options* options);

/* Opens (creating if missing) the journal in `dir`, recovering what is there.
   EWOULDBLOCK if another writer holds it; EINVAL, EILSEQ, EPROTONOSUPPORT for
   a directory that is not a sound journal (the message says why). */
int sluice_journal_open(sluice_journal** out, const char* dir,
                        const sluice_journal_options* options);

/* Gives the record the next lsn (in *lsn, if not NULL): copied into memory,
   not durable until commit. EMSGSIZE beyond 64 MiB. */
int sluice_journal_append(sluice_journal* journal, const void* data, size_t size, uint64_t* lsn);

/* One record of a batch. */
typedef struct sluice_bytes {
  const void* data;
  size_t size;
} sluice_bytes;

/* Appends `count` records with consecutive lsns, all or nothing after a
   crash; *last_lsn (if not NULL) gets the last one's. */
int sluice_journal_append_many(sluice_journal* journal, const sluice_bytes* records, size_t count,
                               uint64_t* last_lsn);

/* Returns once every record up to `lsn` is durable (group commit: one
   fdatasync serves every thread waiting). EINVAL for an lsn not appended; a
   failed write or sync poisons the journal. */
int sluice_journal_commit(sluice_journal* journal, uint64_t lsn);

/* append, then commit: durable on return. */
int sluice_journal_write(sluice_journal* journal, const void* data, size_t size, uint64_t* lsn);

/* A cursor over the records from `lsn` on that are durable now. ERANGE for
   an lsn older than the oldest kept. Close every cursor before its journal. */
int sluice_journal_read_from(sluice_journal* journal, uint64_t lsn, sluice_journal_cursor** out);
/* The next record: its lsn, bytes and size, valid until the cursor moves
   on. SLUICE_EOF after the last; EILSEQ for a damaged record. */
int sluice_journal_cursor_next(sluice_journal_cursor* cursor, uint64_t* lsn, const void** data,
                               size_t* size);
void sluice_journal_cursor_close(sluice_journal_cursor* cursor);

/* Removes every segment whose records all have lsns below `lsn`. */
int sluice_journal_truncate_before(sluice_journal* journal, uint64_t lsn);

/* The oldest lsn kept, and the lsn the next append gets. */
int sluice_journal_first_lsn(const sluice_journal* journal, uint64_t* lsn);
int sluice_journal_next_lsn(const sluice_journal* journal, uint64_t* lsn);

/* Commits everything appended, closes, and frees the journal whatever
   happens; returns every error (a poisoning failure again). */
int sluice_journal_close(sluice_journal* journal);

/* ---- Inline paths ------------------------------------------------------ */

/* What the sluice_writer_put and sluice_writer_write macros call: the byte or
   bytes go into the buffer's room when they fit, else to the exported
   function. Define SLUICE_NO_INLINE before including this header to call the
   exported functions always.
   Speed: a loop of puts costs what the C++ writer::put's does where the
   handle stays in a register: a function's parameter, or a local copy whose
   address is never taken. A loop over the very variable whose address
   sluice_writer_open(&out, ...) took reloads it after every byte stored (a
   char store may change any object), about 8% slower:
   docs/performance.md#from-c-sluice_writer_put-at-writerputs-speed */
static inline int sluice_writer_put_inline(sluice_writer* writer, char c) {
  struct sluice_writer_window* window = (struct sluice_writer_window*)(void*)writer;
  if (writer != NULL && window->next != window->end) {
    *window->next++ = c;
    return 0;
  }
  return (sluice_writer_put)(writer, c);
}

static inline int sluice_writer_write_inline(sluice_writer* writer, const void* data, size_t size) {
  struct sluice_writer_window* window = (struct sluice_writer_window*)(void*)writer;
  if (writer != NULL && size <= (size_t)(window->end - window->next) && size != 0) {
    memcpy(window->next, data, size);
    window->next += size;
    return 0;
  }
  return (sluice_writer_write)(writer, data, size);
}

#ifndef SLUICE_NO_INLINE
#define sluice_writer_put(writer, c) sluice_writer_put_inline((writer), (c))
#define sluice_writer_write(writer, data, size) sluice_writer_write_inline((writer), (data), (size))
#endif

#ifdef __cplusplus
}
#endif

#endif /* SLUICE_C_H */
