/* sluice_parse_*, and doubles printed then read back bit for bit. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "c_check.h"
#include "c_support.h"
#include "c_tests.h"

/* Parses the C string `text` whole. */
#define PARSE(kind, text, value) sluice_parse_##kind((text), strlen(text), (value))

int c_numbers_parse_whole_texts(const char* dir) {
  (void)dir;
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  CHECK_OK(PARSE(i64, "-9223372036854775808", &i));
  CHECK(i == INT64_MIN);
  CHECK_OK(PARSE(i64, "+17", &i));
  CHECK_INT(i, 17);
  CHECK_OK(PARSE(u64, "18446744073709551615", &u));
  CHECK_U64(u, UINT64_MAX);
  CHECK_OK(PARSE(double, "0.1", &d));
  CHECK(d == 0.1);
  CHECK_OK(PARSE(double, "-1e-300", &d));
  CHECK(d == -1e-300);
  CHECK_OK(PARSE(double, "inf", &d));
  CHECK(isinf(d) && d > 0);
  CHECK_OK(sluice_parse_i64("12345", 2, &i)); /* the size counts, not a NUL */
  CHECK_INT(i, 12);
  return 0;
}

int c_numbers_parse_refusals_quote_the_text(const char* dir) {
  (void)dir;
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  CHECK_RC(PARSE(i64, "12x", &i), EINVAL);
  CHECK_ERROR("sluice: parse int64 \"12x\": expected a decimal integer");
  CHECK_RC(PARSE(i64, " 1", &i), EINVAL);
  CHECK_RC(PARSE(i64, "", &i), EINVAL);
  CHECK_ERROR("sluice: parse int64 \"\": expected a decimal integer");
  CHECK_RC(PARSE(i64, "9223372036854775808", &i), ERANGE);
  CHECK_ERROR("sluice: parse int64 \"9223372036854775808\": out of range");
  CHECK_RC(PARSE(u64, "18446744073709551616", &u), ERANGE);
  CHECK_ERROR("sluice: parse uint64 \"18446744073709551616\": out of range");
  CHECK_RC(PARSE(u64, "+-1", &u), EINVAL);
  CHECK_ERROR("sluice: parse uint64 \"+-1\": expected a decimal integer");
  CHECK_RC(PARSE(double, "1.5x", &d), EINVAL);
  CHECK_ERROR("sluice: parse double \"1.5x\": expected a decimal number, inf or nan");
  CHECK_RC(PARSE(double, "1e999", &d), ERANGE);
  CHECK_ERROR("sluice: parse double \"1e999\": out of range");
  return 0;
}

/* xorshift64: bit patterns all over the doubles. */
static uint64_t next_bits(uint64_t* state) {
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return *state;
}

/* The i-th double of the test: special values first, then random bits
   (NaNs, whose payload text does not keep, left out). */
static double test_double(size_t i, uint64_t* state) {
  static const double special[] = {0.0,      -0.0,      0.1,      1.0 / 3,
                                   1e100,    -1e-300,   5e-324,   1.7976931348623157e308,
                                   INFINITY, -INFINITY, 2.5e-308, 123456789012345678.0};
  if (i < sizeof special / sizeof special[0]) return special[i];
  double value;
  do {
    uint64_t bits = next_bits(state);
    memcpy(&value, &bits, sizeof value);
  } while (isnan(value));
  return value;
}

/* print_double, then read_double: every value back bit for bit. */
int c_numbers_double_round_trip_bit_for_bit(const char* dir) {
  enum { count = 20000 };
  c_path path = c_path_in(dir, "doubles");
  sluice_writer_options options;
  sluice_writer_options_init(&options);
  options.buffer_size = 100; /* numbers straddle the buffers' ends */
  sluice_writer* w = NULL;
  CHECK_OK(sluice_writer_open(&w, path.text, &options));
  uint64_t state = 88172645463325252u;
  for (size_t i = 0; i < count; ++i) {
    CHECK_OK(sluice_writer_print_double(w, test_double(i, &state)));
    CHECK_OK(sluice_writer_put(w, '\n'));
  }
  CHECK_OK(sluice_writer_close(w));

  sluice_reader_options reading;
  sluice_reader_options_init(&reading);
  reading.buffer_size = 64;
  sluice_reader* r = NULL;
  CHECK_OK(sluice_reader_open(&r, path.text, &reading));
  state = 88172645463325252u;
  for (size_t i = 0; i < count; ++i) {
    double expected = test_double(i, &state);
    double got = 0;
    CHECK_OK(sluice_reader_read_double(r, '\n', &got));
    if (memcmp(&got, &expected, sizeof got) != 0)
      return c_check_fail(__FILE__, __LINE__, "double %zu: read %.17g, printed %.17g", i, got,
                          expected);
  }
  double after = 0;
  CHECK_RC(sluice_reader_read_double(r, '\n', &after), SLUICE_EOF);
  CHECK_OK(sluice_reader_close(r));
  return 0;
}
