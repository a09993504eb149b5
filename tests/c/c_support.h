/* What the C tests share besides their checks: paths in the test's
 * directory, files written and read with plain POSIX calls (not through
 * sluice), patterned bytes, and a capture of the error handler's reports. */
#ifndef SLUICE_TEST_C_SUPPORT_H
#define SLUICE_TEST_C_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A path: "<dir>/<name>". */
typedef struct c_path {
  char text[1024];
} c_path;
c_path c_path_in(const char* dir, const char* name);

/* The whole of `path`, malloc'ed with a NUL after it, its length in *size;
   NULL if it cannot be read. */
char* c_read_all(const char* path, size_t* size);
/* Creates or truncates `path` with `size` bytes of `data`; 0 or errno. */
int c_write_all(const char* path, const void* data, size_t size);
/* st_size of `path`, or UINT64_MAX if stat fails. */
uint64_t c_file_size(const char* path);

/* Fills out[0, size) with letters in a pattern that depends on `seed`, so
   that lost or duplicated bytes show. */
void c_pattern(char* out, size_t size, unsigned seed);

/* Installs an error handler that records each report (sluice_set_error_handler),
   forgetting those recorded before; c_reports_release puts back the default. */
void c_reports_capture(void);
void c_reports_release(void);
int c_reports_count(void);
/* The last report's errno value and message (0 and "" if none). */
int c_reports_error(void);
const char* c_reports_message(void);

#ifdef __cplusplus
}
#endif

#endif /* SLUICE_TEST_C_SUPPORT_H */
