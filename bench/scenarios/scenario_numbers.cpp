// sluice-bench "numbers": a CSV of rows "int64,double,int32", each column
// summed, as a scientific loader or an importer reads its input. The
// doubles are printed at full precision (the shortest text that reads back
// to the same bits, up to 17 digits, some with an exponent), so that every
// correct parser yields the same bits and the same sums, compared exactly:
// the double sum by its bits. strtoll/strtod, std::from_chars (the limit)
// and fast_float are fed the same whole lines by one read(2) loop
// (line_chunks), so that their rows differ in the parsing only; fscanf and
// operator>> read through their own streams. sluice reads the rows as its
// users would: field by field with reader::read_number<T>, each number read
// where it lies in the reader's buffer, and line by line with
// reader::read_fields and fields::next<T>.
#include <cerrno>
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sluice/reader.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#ifdef SLUICE_BENCH_HAVE_FAST_FLOAT
#include <fast_float/fast_float.h>
#endif

#include "core/content.hpp"
#include "core/io.hpp"
#include "core/units.hpp"
#include "peers/ifstream.hpp"
#include "peers/stdio_input.hpp"
#include "scenarios/line_chunks.hpp"
#include "scenarios/scenarios.hpp"

namespace sluice::bench {
namespace {

// What every method computes: the rows and each column's sum (the int64s
// wrapping, the doubles added in order).
class column_sums {
 public:
  void add(std::int64_t a, double b, std::int32_t c) {
    ++rows_;
    int64s_ += static_cast<std::uint64_t>(a);
    doubles_ += b;
    int32s_ += c;
  }
  std::uint64_t rows() const { return rows_; }
  std::string text() const {
    char line[160];
    std::snprintf(line, sizeof line, "%" PRIu64 " rows; sums %" PRId64 ", %a, %" PRId64, rows_,
                  static_cast<std::int64_t>(int64s_), doubles_, int32s_);
    return line;
  }

 private:
  std::uint64_t rows_ = 0;
  std::uint64_t int64s_ = 0;
  double doubles_ = 0;
  std::int64_t int32s_ = 0;
};

[[noreturn]] void malformed(std::uint64_t row) {
  throw std::runtime_error("malformed CSV at row " + std::to_string(row + 1));
}

// The rows of `text` (whole lines, followed by a '\0'), each parsed by
// `parse(at, end, a, b, c)`, which returns where the row's last number ends
// or nullptr if the row is malformed.
template <class Parse>
void sum_rows(std::string_view text, column_sums& sums, Parse&& parse) {
  const char* at = text.data();
  const char* end = at + text.size();
  while (at < end) {
    std::int64_t a;
    double b;
    std::int32_t c;
    const char* row_end = parse(at, end, a, b, c);
    if (!row_end || (row_end < end && *row_end != '\n')) malformed(sums.rows());
    sums.add(a, b, c);
    at = row_end + 1;
  }
}

template <class Parse>
std::string sum_chunks(const target& t, Parse&& parse) {
  line_chunks in(t.input);
  column_sums sums;
  for (std::string_view rows; !(rows = in.next()).empty();) sum_rows(rows, sums, parse);
  return sums.text();
}

// std::from_chars for T at `at`, then `separator`; nullptr if either is not there.
template <class T>
const char* integer_then(const char* at, const char* end, T& value, char separator) {
  auto [next, error] = std::from_chars(at, end, value);
  if (error != std::errc() || next == end || *next != separator) return nullptr;
  return next + 1;
}

// A row: its integers by std::from_chars, its double by
// from_double(at, end, value), which returns a result with `ptr` and `ec`
// as std::from_chars does.
template <class FromDouble>
const char* parse_row(const char* at, const char* end, std::int64_t& a, double& b, std::int32_t& c,
                      FromDouble from_double) {
  if (!(at = integer_then(at, end, a, ','))) return nullptr;
  auto [next, error] = from_double(at, end, b);
  if (error != std::errc() || next == end || *next != ',') return nullptr;
  auto [last, error_c] = std::from_chars(next + 1, end, c);
  return error_c == std::errc() ? last : nullptr;
}

const char* parse_from_chars(const char* at, const char* end, std::int64_t& a, double& b,
                             std::int32_t& c) {
  return parse_row(at, end, a, b, c, [](const char* first, const char* last, double& value) {
    return std::from_chars(first, last, value);
  });
}

#ifdef SLUICE_BENCH_HAVE_FAST_FLOAT
// fast_float parses the double; its version in Debian 12 has no integers,
// which std::from_chars parses.
const char* parse_fast_float(const char* at, const char* end, std::int64_t& a, double& b,
                             std::int32_t& c) {
  return parse_row(at, end, a, b, c, [](const char* first, const char* last, double& value) {
    return fast_float::from_chars(first, last, value);
  });
}
#endif

// strtoll, strtod, strtol, each checked for no digits and ERANGE; relies on
// the '\0' after the lines.
const char* parse_strto(const char* at, const char*, std::int64_t& a, double& b, std::int32_t& c) {
  char* next;
  errno = 0;
  a = std::strtoll(at, &next, 10);
  if (next == at || *next != ',') return nullptr;
  at = next + 1;
  b = std::strtod(at, &next);
  if (next == at || *next != ',') return nullptr;
  at = next + 1;
  long wide = std::strtol(at, &next, 10);
  if (next == at || errno == ERANGE || wide < INT32_MIN || wide > INT32_MAX) return nullptr;
  c = static_cast<std::int32_t>(wide);
  return next;
}

std::string read_from_chars(const target& t) { return sum_chunks(t, parse_from_chars); }
std::string read_strto(const target& t) { return sum_chunks(t, parse_strto); }
#ifdef SLUICE_BENCH_HAVE_FAST_FLOAT
std::string read_fast_float(const target& t) { return sum_chunks(t, parse_fast_float); }
#endif

std::string read_iostream(const target& t) {
  input_ifstream file(t.input, 0);
  std::ifstream& in = file.get();
  column_sums sums;
  std::int64_t a;
  double b;
  std::int32_t c;
  char comma, other_comma;
  while (in >> a >> comma >> b >> other_comma >> c) {
    if (comma != ',' || other_comma != ',') malformed(sums.rows());
    sums.add(a, b, c);
  }
  if (!in.eof()) malformed(sums.rows());
  file.finish();
  return sums.text();
}

std::string read_fscanf(const target& t) {
  stdio_input in(t.input);
  column_sums sums;
  std::int64_t a;
  double b;
  std::int32_t c;
  int got;
  while ((got = std::fscanf(in.get(), "%" SCNd64 ",%lf,%" SCNd32, &a, &b, &c)) == 3)
    sums.add(a, b, c);
  if (got != EOF) malformed(sums.rows());
  in.finish();
  return sums.text();
}

// Field by field, each number read in place in the reader's buffer up to
// its terminator.
std::string read_sluice_numbers(const target& t) {
  sluice::reader in(t.input, {.buffer_size = t.buffer_size});
  column_sums sums;
  while (!in.eof()) {
    auto a = in.read_number<std::int64_t>(',');
    auto b = in.read_number<double>(',');
    auto c = in.read_number<std::int32_t>('\n');
    sums.add(a, b, c);
  }
  return sums.text();
}

// Line by line: each line's fields, its end found first.
std::string read_sluice_fields(const target& t) {
  sluice::reader in(t.input, {.buffer_size = t.buffer_size});
  column_sums sums;
  while (auto row = in.read_fields(',')) {
    auto a = row->next<std::int64_t>();
    auto b = row->next<double>();
    auto c = row->next<std::int32_t>();
    if (!row->done()) malformed(sums.rows());
    sums.add(a, b, c);
  }
  return sums.text();
}

// Row i's double: a 53-bit significand, 2^-40 to 2^41 in magnitude, either sign.
double make_double(random_stream& numbers) {
  auto significand = static_cast<double>(numbers.next() >> 11 | std::uint64_t{1} << 52);
  int exponent = static_cast<int>(numbers.below(82)) - 40 - 52;
  double value = std::ldexp(significand, exponent);
  return numbers.next() & 1 ? -value : value;
}

// One row's text at `at` (room for 64 bytes), its length.
std::size_t print_row(random_stream& numbers, char* at) {
  char* end = at + 64;
  char* next = std::to_chars(at, end, static_cast<std::int64_t>(numbers.next())).ptr;
  *next++ = ',';
  next = std::to_chars(next, end, make_double(numbers)).ptr;
  *next++ = ',';
  next = std::to_chars(next, end, static_cast<std::int32_t>(numbers.next())).ptr;
  *next++ = '\n';
  return static_cast<std::size_t>(next - at);
}

// Rows until `size` bytes are reached (a row more at most): the input's
// maker, and its size (the rows are made twice, to size the case without
// keeping them).
std::uint64_t csv_size(std::uint64_t size) {
  random_stream numbers(3);
  char row[64];
  std::uint64_t bytes = 0;
  while (bytes < size) bytes += print_row(numbers, row);
  return bytes;
}

input_maker csv_input(std::uint64_t bytes) {
  return make_input_maker([bytes](const char* path) {
    random_stream numbers(3);
    std::vector<char> chunk(1024 * 1024 + 64);
    raw_file out(path);
    for (std::uint64_t written = 0; written < bytes;) {
      std::size_t filled = 0;
      while (filled < 1024 * 1024 && written + filled < bytes)
        filled += print_row(numbers, chunk.data() + filled);
      out.write_all(chunk.data(), filled);
      written += filled;
    }
    out.finish(false);
  });
}

}  // namespace

std::vector<bench_case> make_numbers(std::uint64_t size) {
  std::uint64_t bytes = csv_size(size);
  bench_case c{"numbers",
               "numbers: " + format_size(bytes) +
                   " of CSV rows \"int64,double,int32\" (doubles at full precision), summed",
               bytes,
               {},
               {}};
  c.input = csv_input(bytes);
  c.methods.push_back(bind_reader("std::ifstream >>", role::peer, read_iostream));
  c.methods.push_back(bind_reader("fscanf", role::peer, read_fscanf));
  c.methods.push_back(bind_reader("strtoll/strtod, read(2) 1 MiB", role::peer, read_strto));
  c.methods.push_back(bind_reader("std::from_chars, read(2) 1 MiB", role::limit, read_from_chars));
#ifdef SLUICE_BENCH_HAVE_FAST_FLOAT
  c.methods.push_back(bind_reader("fast_float (doubles) + std::from_chars, read(2) 1 MiB",
                                  role::peer, read_fast_float));
#else
  c.skipped.emplace_back("fast_float: skipped, not found at build time (libfast-float-dev)");
#endif
  c.methods.push_back(
      bind_reader("sluice reader::read_number<T>", role::sluice, read_sluice_numbers));
  c.methods.push_back(
      bind_reader("sluice reader::read_fields + next<T>", role::sluice, read_sluice_fields));
  return {std::move(c)};
}

}  // namespace sluice::bench
