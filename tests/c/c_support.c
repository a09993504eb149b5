/* The C tests' shared helpers (c_support.h). */
#include "c_support.h"

#include <errno.h>
#include <fcntl.h>
#include <sluice/c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

c_path c_path_in(const char* dir, const char* name) {
  c_path path;
  snprintf(path.text, sizeof path.text, "%s/%s", dir, name);
  return path;
}

char* c_read_all(const char* path, size_t* size) {
  struct stat facts;
  int fd = open(path, O_RDONLY);
  if (fd < 0) return NULL;
  char* text = NULL;
  if (fstat(fd, &facts) == 0) text = malloc((size_t)facts.st_size + 1);
  size_t got = 0;
  while (text != NULL && got < (size_t)facts.st_size) {
    ssize_t n = read(fd, text + got, (size_t)facts.st_size - got);
    if (n <= 0) {
      free(text);
      text = NULL;
    } else {
      got += (size_t)n;
    }
  }
  close(fd);
  if (text == NULL) return NULL;
  text[got] = '\0';
  *size = got;
  return text;
}

int c_write_all(const char* path, const void* data, size_t size) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return errno;
  const char* next = data;
  while (size > 0) {
    ssize_t n = write(fd, next, size);
    if (n < 0) {
      int error = errno;
      close(fd);
      return error;
    }
    next += n;
    size -= (size_t)n;
  }
  return close(fd) == 0 ? 0 : errno;
}

uint64_t c_file_size(const char* path) {
  struct stat facts;
  return stat(path, &facts) == 0 ? (uint64_t)facts.st_size : UINT64_MAX;
}

void c_pattern(char* out, size_t size, unsigned seed) {
  uint32_t state = seed * 2654435761u + 1;
  for (size_t i = 0; i < size; ++i) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    out[i] = (char)('a' + state % 26);
  }
}

static int reports;
static int last_error;
static char last_message[4096];

static void record(int error, const char* message) {
  ++reports;
  last_error = error;
  snprintf(last_message, sizeof last_message, "%s", message);
}

void c_reports_capture(void) {
  reports = 0;
  last_error = 0;
  last_message[0] = '\0';
  sluice_set_error_handler(record);
}

void c_reports_release(void) { sluice_set_error_handler(NULL); }

int c_reports_count(void) { return reports; }

int c_reports_error(void) { return last_error; }

const char* c_reports_message(void) { return last_message; }
