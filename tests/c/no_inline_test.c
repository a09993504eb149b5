/* c.h with SLUICE_NO_INLINE: sluice_writer_put and sluice_writer_write are
   the exported functions, and write the same bytes. */
#define SLUICE_NO_INLINE
#include <stdlib.h>

#include "c_check.h"
#include "c_support.h"
#include "c_tests.h"

#ifdef sluice_writer_put
#error "SLUICE_NO_INLINE: sluice_writer_put is still a macro"
#endif
#ifdef sluice_writer_write
#error "SLUICE_NO_INLINE: sluice_writer_write is still a macro"
#endif

int c_no_inline_put_and_write_are_the_exported_functions(const char* dir) {
  c_path path = c_path_in(dir, "out");
  sluice_writer_options options;
  sluice_writer_options_init(&options);
  options.buffer_size = 8;
  sluice_writer* w = NULL;
  CHECK_OK(sluice_writer_open(&w, path.text, &options));
  int (*put)(sluice_writer*, char) = sluice_writer_put; /* a function, so its address */
  for (const char* c = "put byte by byte, "; *c != '\0'; ++c) CHECK_OK(put(w, *c));
  CHECK_OK(sluice_writer_write(w, "then written", 12));
  CHECK_U64(sluice_writer_tell(w), 30);
  CHECK_OK(sluice_writer_close(w));
  size_t size = 0;
  char* text = c_read_all(path.text, &size);
  CHECK(text != NULL);
  int same =
      c_check_bytes(__FILE__, __LINE__, "the file", text, size, "put byte by byte, then written");
  free(text);
  return same ? 0 : 1;
}
