/* c_check: the assertions of the C tests, and what they share.
 *
 * A test is `int c_<name>(const char* dir)`: it works in the fresh directory
 * `dir` and returns 0, or 1 at the first check that fails, which records
 * where it failed and why (c_check_failure()):
 *   writer_test.c:42: CHECK_RC(sluice_writer_flush(w), ENOSPC): returned 0,
 *   expected 28; sluice_last_error(): ""
 * A failed test may leave handles open: its process is failing anyway. */
#ifndef SLUICE_TEST_C_CHECK_H
#define SLUICE_TEST_C_CHECK_H

#include <sluice/c.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The failure the last test recorded, "" if none; c_check_reset forgets it. */
const char* c_check_failure(void);
void c_check_reset(void);

/* Records a failure at file:line (printf-style); returns 1. */
int c_check_fail(const char* file, int line, const char* format, ...) SLUICE_PRINTF_FORMAT(3, 4);

/* What the checks below compare with; each records the failure itself
   and returns 0 if it failed. */
int c_check_int(const char* file, int line, const char* text, long long got, long long expected);
int c_check_u64(const char* file, int line, const char* text, uint64_t got, uint64_t expected);
int c_check_rc(const char* file, int line, const char* text, int got, int expected);
int c_check_str(const char* file, int line, const char* text, const char* got,
                const char* expected);
int c_check_bytes(const char* file, int line, const char* text, const void* got, size_t size,
                  const char* expected);

/* `condition` holds. */
#define CHECK(condition)                                                         \
  do {                                                                           \
    if (!(condition)) return c_check_fail(__FILE__, __LINE__, "%s", #condition); \
  } while (0)
/* Two integers (or two uint64_t) are equal; both are printed if not. */
#define CHECK_INT(got, expected)                                                                   \
  do {                                                                                             \
    if (!c_check_int(__FILE__, __LINE__, #got, (long long)(got), (long long)(expected))) return 1; \
  } while (0)
#define CHECK_U64(got, expected)                                                                 \
  do {                                                                                           \
    if (!c_check_u64(__FILE__, __LINE__, #got, (uint64_t)(got), (uint64_t)(expected))) return 1; \
  } while (0)
/* A sluice call returns `expected` (0, an errno value, SLUICE_EOF); the
   message printed if not has sluice_last_error(). */
#define CHECK_RC(call, expected)                                              \
  do {                                                                        \
    if (!c_check_rc(__FILE__, __LINE__, #call, (call), (expected))) return 1; \
  } while (0)
#define CHECK_OK(call) CHECK_RC(call, 0)
/* Two C strings are equal. */
#define CHECK_STR(got, expected)                                             \
  do {                                                                       \
    if (!c_check_str(__FILE__, __LINE__, #got, (got), (expected))) return 1; \
  } while (0)
/* got[0, size) holds exactly the C string `expected`. */
#define CHECK_BYTES(got, size, expected)                                               \
  do {                                                                                 \
    if (!c_check_bytes(__FILE__, __LINE__, #got, (got), (size), (expected))) return 1; \
  } while (0)
/* sluice_last_error() is exactly `expected`. */
#define CHECK_ERROR(expected) CHECK_STR(sluice_last_error(), (expected))

#ifdef __cplusplus
}
#endif

#endif /* SLUICE_TEST_C_CHECK_H */
