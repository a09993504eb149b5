/* A durable journal of transactions from C: money transfers between eight
 * accounts, each durable before the next one starts (as a ledger that
 * answers "done" must), then the whole journal replayed to compute the
 * balances. Two ways, side by side: with sluice's C journal, and with what a
 * C program does by hand, a log file of length-prefixed records appended
 * with write(2) and fdatasync'ed after each. Both print the same replay (the
 * examples' test checks).
 *
 *   sluice-example-c-journal [--posix] dir [count]     (default: 1000)
 *
 * `dir` is created if missing; new transfers are added to what it holds.
 * What the hand-written version lacks and the journal has: checksums (a
 * torn or damaged record is found, not read as a transfer), a torn tail cut
 * on open, group commit (committers on many threads share one fdatasync),
 * segments that truncate_before removes, and one writer process at a time.
 */
#define _POSIX_C_SOURCE 200809L /* fdatasync, mkdir, open's O_CLOEXEC */

#include <errno.h>
#include <fcntl.h>
#include <sluice/c.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef _WIN32
/* The version by hand on Windows: the C runtime's POSIX-like calls, in
   binary mode; _commit is FlushFileBuffers. */
#include <direct.h>
#include <io.h>
#define O_CLOEXEC (_O_NOINHERIT | _O_BINARY)
#define fdatasync _commit
#define mkdir(dir, mode) _mkdir(dir)
#endif

enum { accounts = 8, transfer_size = 12, opening_balance = 1000 };

/* A transfer of `amount` from account `from` to account `to`. */
struct transfer {
  uint32_t from, to, amount;
};

/* The i-th transfer of a deterministic run. */
static struct transfer make_transfer(uint64_t i) {
  uint64_t x = (i + 1) * 0x9e3779b97f4a7c15u;
  struct transfer t = {(uint32_t)(x >> 61), (uint32_t)(x >> 58) % accounts,
                       1 + (uint32_t)(x >> 32) % 100};
  if (t.to == t.from) t.to = (t.to + 1) % accounts;
  return t;
}

/* A transfer as it is stored: three little-endian 32-bit fields. */
static void encode(struct transfer t, unsigned char* bytes) {
  uint32_t fields[3] = {t.from, t.to, t.amount};
  for (int f = 0; f < 3; ++f)
    for (int b = 0; b < 4; ++b) bytes[4 * f + b] = (unsigned char)(fields[f] >> (8 * b));
}

static uint32_t field(const unsigned char* bytes) {
  return (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 |
         (uint32_t)bytes[3] << 24;
}

/* The balances after the transfers so far. */
struct ledger {
  int64_t balance[accounts];
  uint64_t transfers;
};

static void open_ledger(struct ledger* ledger) {
  for (int a = 0; a < accounts; ++a) ledger->balance[a] = opening_balance;
  ledger->transfers = 0;
}

/* Applies a stored transfer; 0 if its bytes are not one. */
static int apply(struct ledger* ledger, const unsigned char* bytes, size_t size) {
  if (size != transfer_size) return 0;
  uint32_t from = field(bytes), to = field(bytes + 4), amount = field(bytes + 8);
  if (from >= accounts || to >= accounts) return 0;
  ledger->balance[from] -= amount;
  ledger->balance[to] += amount;
  ++ledger->transfers;
  return 1;
}

static void print_ledger(const struct ledger* ledger) {
  printf("%llu transfers replayed; balances:", (unsigned long long)ledger->transfers);
  for (int a = 0; a < accounts; ++a) printf(" %lld", (long long)ledger->balance[a]);
  printf("\n");
}

static int make_directory(const char* dir) {
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    perror(dir);
    return 1;
  }
  return 0;
}

/* --- with sluice ---------------------------------------------------------- */

static int fail(sluice_journal* journal) {
  fprintf(stderr, "%s\n", sluice_last_error());
  sluice_journal_close(journal); /* the same error again, or none: already told */
  return 1;
}

/* Each transfer is one record: sluice_journal_write returns once it is
   durable. A transaction of several records would append them with
   sluice_journal_append_many and commit the last lsn. */
static int write_with_sluice(const char* dir, uint64_t first, uint64_t count) {
  sluice_journal* journal;
  if (sluice_journal_open(&journal, dir, NULL) != 0) return fail(NULL);
  for (uint64_t i = first; i < first + count; ++i) {
    unsigned char record[transfer_size];
    encode(make_transfer(i), record);
    if (sluice_journal_write(journal, record, sizeof record, NULL) != 0) return fail(journal);
  }
  if (sluice_journal_close(journal) != 0) return fail(NULL);
  return 0;
}

static int replay_with_sluice(const char* dir, struct ledger* ledger) {
  sluice_journal* journal;
  sluice_journal_cursor* cursor;
  uint64_t first, lsn;
  const void* data;
  size_t size;
  if (sluice_journal_open(&journal, dir, NULL) != 0) return fail(NULL);
  if (sluice_journal_first_lsn(journal, &first) != 0 ||
      sluice_journal_read_from(journal, first, &cursor) != 0)
    return fail(journal);
  int status;
  while ((status = sluice_journal_cursor_next(cursor, &lsn, &data, &size)) == 0)
    if (!apply(ledger, data, size)) break;
  if (status == 0)
    fprintf(stderr, "%s: record %llu is not a transfer\n", dir, (unsigned long long)lsn);
  else if (status != SLUICE_EOF)
    fprintf(stderr, "%s\n", sluice_last_error());
  sluice_journal_cursor_close(cursor);
  if (sluice_journal_close(journal) != 0) return fail(NULL);
  return status == SLUICE_EOF ? 0 : 1;
}

static int with_sluice(const char* dir, uint64_t count) {
  struct ledger ledger;
  open_ledger(&ledger);
  if (make_directory(dir) != 0 || replay_with_sluice(dir, &ledger) != 0) return 1;
  if (write_with_sluice(dir, ledger.transfers, count) != 0) return 1;
  open_ledger(&ledger);
  if (replay_with_sluice(dir, &ledger) != 0) return 1;
  print_ledger(&ledger);
  return 0;
}

/* --- by hand: write(2) + fdatasync ----------------------------------------
   Each record is a 4-byte little-endian length, then its bytes, written
   with one write(2) and made durable by fdatasync. */

static int fail_errno(const char* what, const char* path) {
  fprintf(stderr, "%s '%s': %s\n", what, path, strerror(errno));
  return 1;
}

/* write(2) until all `size` bytes are in, past EINTR and short writes. */
static int write_all(int fd, const unsigned char* bytes, size_t size) {
  while (size > 0) {
    ssize_t n = write(fd, bytes, size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    bytes += n;
    size -= (size_t)n;
  }
  return 0;
}

/* A new log file is durable only once its directory entry is: fsync the
   directory after creating it. Windows opens no directory with open(), and
   NTFS journals the new entry. */
static int sync_directory(const char* dir) {
#ifdef _WIN32
  (void)dir;
  return 0;
#else
  int fd = open(dir, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail_errno("open", dir);
  int failed = fsync(fd) != 0;
  close(fd);
  return failed ? fail_errno("fsync", dir) : 0;
#endif
}

static int write_by_hand(const char* dir, const char* path, uint64_t first, uint64_t count) {
  int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
  if (fd < 0) return fail_errno("open", path);
  if (first == 0 && sync_directory(dir) != 0) {
    close(fd);
    return 1;
  }
  for (uint64_t i = first; i < first + count; ++i) {
    unsigned char frame[4 + transfer_size] = {transfer_size, 0, 0, 0};
    encode(make_transfer(i), frame + 4);
    if (write_all(fd, frame, sizeof frame) != 0 || fdatasync(fd) != 0) {
      /* A failed fdatasync must not be retried: the kernel may have dropped
         the pages it could not write, and a retry would then "succeed". */
      int failed = fail_errno("write and fdatasync", path);
      close(fd);
      return failed;
    }
  }
  if (close(fd) != 0) return fail_errno("close", path);
  return 0;
}

/* Replays the log; a missing log is an empty one. A torn last frame (a
   crash mid-write) is ignored; damage inside a frame goes unseen. */
static int replay_by_hand(const char* path, struct ledger* ledger) {
  FILE* in = fopen(path, "rb");
  if (in == NULL) return errno == ENOENT ? 0 : fail_errno("open", path);
  unsigned char header[4], record[transfer_size];
  int status = 0;
  while (fread(header, 1, sizeof header, in) == sizeof header) {
    uint32_t size = field(header);
    if (size != transfer_size || fread(record, 1, size, in) != size) break;
    if (!apply(ledger, record, size)) {
      fprintf(stderr, "%s: a record that is not a transfer\n", path);
      status = 1;
      break;
    }
  }
  if (ferror(in)) status = fail_errno("read", path);
  fclose(in);
  return status;
}

static int by_hand(const char* dir, uint64_t count) {
  char path[4096];
  if (snprintf(path, sizeof path, "%s/transfers.log", dir) >= (int)sizeof path) {
    fprintf(stderr, "%s: the path is too long\n", dir);
    return 1;
  }
  struct ledger ledger;
  open_ledger(&ledger);
  if (make_directory(dir) != 0 || replay_by_hand(path, &ledger) != 0) return 1;
  if (write_by_hand(dir, path, ledger.transfers, count) != 0) return 1;
  open_ledger(&ledger);
  if (replay_by_hand(path, &ledger) != 0) return 1;
  print_ledger(&ledger);
  return 0;
}

int main(int argc, char** argv) {
  int posix = argc > 1 && strcmp(argv[1], "--posix") == 0;
  if (argc < 2 + posix) {
    fprintf(stderr, "usage: %s [--posix] dir [count]\n", argv[0]);
    return 2;
  }
  const char* dir = argv[1 + posix];
  uint64_t count = argc > 2 + posix ? strtoull(argv[2 + posix], NULL, 10) : 1000;
  return posix ? by_hand(dir, count) : with_sluice(dir, count);
}
