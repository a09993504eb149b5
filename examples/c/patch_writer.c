/* Writes a small binary patch file, the kind a delta or archive tool makes,
 * from C: a header of fixed-width little-endian fields, then one record per
 * edit (a kind byte, varints, and for an insertion a blob of literal bytes),
 * then a trailer; many tiny writes. The same file is written two ways, side
 * by side: with sluice's C API, and with stdio's fwrite as such tools are
 * usually written. Both give the same bytes (the examples' test checks), and
 * the same as ../patch_writer.cpp, its C++ twin.
 *
 *   sluice-example-c-patch [--stdio] [path]     (default: patch.bin, sluice)
 */
#include <sluice/c.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One edit: copy `length` bytes from `offset` of the old file, or insert
   the `literal_size` bytes of `literal`. */
struct edit {
  uint64_t offset;
  uint32_t length;
  size_t literal_size; /* 0 for a copy */
  unsigned char literal[64];
};

static const char magic[4] = {'S', 'P', 'C', 'H'};
enum { version = 1, edit_count = 100000 };

static uint32_t next_random(uint64_t* state) {
  *state = *state * 6364136223846793005u + 1442695040888963407u;
  return (uint32_t)(*state >> 33);
}

/* A deterministic list of edits, as a diff of two large files might give;
   NULL if memory runs out. */
static struct edit* make_edits(size_t count) {
  struct edit* edits = calloc(count, sizeof *edits);
  uint64_t state = 0x9e3779b97f4a7c15u;
  for (size_t i = 0; edits != NULL && i < count; ++i) {
    struct edit* e = &edits[i];
    if (next_random(&state) % 4 == 0) {
      e->literal_size = 1 + next_random(&state) % 64;
      for (size_t b = 0; b < e->literal_size; ++b)
        e->literal[b] = (unsigned char)next_random(&state);
    } else {
      e->offset = (uint64_t)next_random(&state) * 1021;
      e->length = next_random(&state) % 100000;
    }
  }
  return edits;
}

static uint64_t new_size(const struct edit* edits, size_t count) {
  uint64_t size = 0;
  for (size_t i = 0; i < count; ++i)
    size += edits[i].literal_size != 0 ? edits[i].literal_size : edits[i].length;
  return size;
}

/* `value`'s low `width` bytes, least significant first, into `bytes`. */
static void little_endian(uint64_t value, size_t width, unsigned char* bytes) {
  for (size_t i = 0; i < width; ++i) bytes[i] = (unsigned char)(value >> (8 * i));
}

/* LEB128: seven bits a byte, the high bit set on all but the last. Returns
   the number of bytes, at most 10. */
static size_t varint(uint64_t value, unsigned char* bytes) {
  size_t n = 0;
  for (; value >= 0x80; value >>= 7) bytes[n++] = (unsigned char)(value | 0x80);
  bytes[n++] = (unsigned char)value;
  return n;
}

/* --- with sluice ---------------------------------------------------------
   No call's result is checked on the way: an error sticks to the writer,
   every later call returns it, and sluice_writer_close reports it. */

static void put_le(sluice_writer* out, uint64_t value, size_t width) {
  unsigned char bytes[8];
  little_endian(value, width, bytes);
  sluice_writer_write(out, bytes, width); /* inline: a bounds check and a copy */
}

/* The varint's bytes go straight into the buffer, one inline put each. */
static void put_varint(sluice_writer* out, uint64_t value) {
  for (; value >= 0x80; value >>= 7) sluice_writer_put(out, (char)(value | 0x80));
  sluice_writer_put(out, (char)value);
}

static int write_with_sluice(const char* path, const struct edit* edits, size_t count) {
  sluice_writer* out;
  if (sluice_writer_open(&out, path, NULL) != 0) {
    fprintf(stderr, "%s\n", sluice_last_error());
    return 1;
  }
  sluice_writer_write(out, magic, sizeof magic);
  put_le(out, version, 2);
  put_le(out, 0, 2); /* flags */
  put_le(out, new_size(edits, count), 8);
  put_varint(out, count);
  for (size_t i = 0; i < count; ++i) {
    const struct edit* e = &edits[i];
    if (e->literal_size == 0) {
      sluice_writer_put(out, 'C');
      put_varint(out, e->offset);
      put_varint(out, e->length);
    } else {
      sluice_writer_put(out, 'I');
      put_varint(out, e->literal_size);
      sluice_writer_write(out, e->literal, e->literal_size);
    }
  }
  sluice_writer_write(out, "END!", 4);
  if (sluice_writer_close(out) != 0) { /* every error so far, or close's own */
    fprintf(stderr, "%s\n", sluice_last_error());
    return 1;
  }
  return 0;
}

/* --- with stdio ------------------------------------------------------------
   fwrite's count is checked at each call, and the first failure ends the
   program with errno's message. */

static void fwrite_or_die(const void* data, size_t size, FILE* f) {
  if (fwrite(data, 1, size, f) != size) {
    perror("fwrite");
    exit(1);
  }
}

static void fwrite_le(uint64_t value, size_t width, FILE* f) {
  unsigned char bytes[8];
  little_endian(value, width, bytes);
  fwrite_or_die(bytes, width, f);
}

static void fwrite_varint(uint64_t value, FILE* f) {
  unsigned char bytes[10];
  fwrite_or_die(bytes, varint(value, bytes), f);
}

static int write_with_stdio(const char* path, const struct edit* edits, size_t count) {
  FILE* f = fopen(path, "wb");
  if (f == NULL) {
    perror(path);
    return 1;
  }
  fwrite_or_die(magic, sizeof magic, f);
  fwrite_le(version, 2, f);
  fwrite_le(0, 2, f);
  fwrite_le(new_size(edits, count), 8, f);
  fwrite_varint(count, f);
  for (size_t i = 0; i < count; ++i) {
    const struct edit* e = &edits[i];
    if (e->literal_size == 0) {
      fwrite_or_die("C", 1, f);
      fwrite_varint(e->offset, f);
      fwrite_varint(e->length, f);
    } else {
      fwrite_or_die("I", 1, f);
      fwrite_varint(e->literal_size, f);
      fwrite_or_die(e->literal, e->literal_size, f);
    }
  }
  fwrite_or_die("END!", 4, f);
  if (fclose(f) != 0) {
    perror(path);
    return 1;
  }
  return 0;
}

int main(int argc, char** argv) {
  int stdio = argc > 1 && strcmp(argv[1], "--stdio") == 0;
  const char* path = argc > 1 + stdio ? argv[1 + stdio] : "patch.bin";
  struct edit* edits = make_edits(edit_count);
  if (edits == NULL) {
    fprintf(stderr, "out of memory for %d edits\n", edit_count);
    return 1;
  }
  int status = stdio ? write_with_stdio(path, edits, edit_count)
                     : write_with_sluice(path, edits, edit_count);
  free(edits);
  return status;
}
