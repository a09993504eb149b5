/* The C tests' checks (c_check.h): the first failure is kept, with where
   it happened and what was found. */
#include "c_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static char failure[8192];

const char* c_check_failure(void) { return failure; }

void c_check_reset(void) { failure[0] = '\0'; }

/* The file's name without its directories, as the message shows it. */
static const char* base_name(const char* file) {
  const char* slash = strrchr(file, '/');
  return slash ? slash + 1 : file;
}

int c_check_fail(const char* file, int line, const char* format, ...) {
  if (failure[0] != '\0') return 1; /* the first failure is the one that matters */
  int used = snprintf(failure, sizeof failure, "%s:%d: ", base_name(file), line);
  if (used < 0 || (size_t)used >= sizeof failure) return 1;
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(failure + used, sizeof failure - (size_t)used, format, arguments);
  va_end(arguments);
  return 1;
}

int c_check_int(const char* file, int line, const char* text, long long got, long long expected) {
  if (got == expected) return 1;
  c_check_fail(file, line, "%s is %lld, expected %lld", text, got, expected);
  return 0;
}

int c_check_u64(const char* file, int line, const char* text, uint64_t got, uint64_t expected) {
  if (got == expected) return 1;
  c_check_fail(file, line, "%s is %llu, expected %llu", text, (unsigned long long)got,
               (unsigned long long)expected);
  return 0;
}

int c_check_rc(const char* file, int line, const char* text, int got, int expected) {
  if (got == expected) return 1;
  c_check_fail(file, line, "%s returned %d (%s), expected %d (%s); sluice_last_error(): \"%s\"",
               text, got,
               got > 0             ? strerror(got)
               : got == SLUICE_EOF ? "SLUICE_EOF"
                                   : "-",
               expected,
               expected > 0             ? strerror(expected)
               : expected == SLUICE_EOF ? "SLUICE_EOF"
                                        : "-",
               sluice_last_error());
  return 0;
}

int c_check_str(const char* file, int line, const char* text, const char* got,
                const char* expected) {
  if (got != NULL && strcmp(got, expected) == 0) return 1;
  c_check_fail(file, line, "%s is\n  \"%s\"\nexpected\n  \"%s\"", text, got ? got : "(null)",
               expected);
  return 0;
}

int c_check_bytes(const char* file, int line, const char* text, const void* got, size_t size,
                  const char* expected) {
  size_t expected_size = strlen(expected);
  if (size == expected_size && (size == 0 || memcmp(got, expected, size) == 0)) return 1;
  c_check_fail(file, line, "%s is %zu bytes \"%.*s\", expected %zu bytes \"%s\"", text, size,
               got ? (int)(size < 200 ? size : 200) : 0, got ? (const char*)got : "", expected_size,
               expected);
  return 0;
}
