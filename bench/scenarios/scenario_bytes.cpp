// sluice-bench "bytes": a file written one byte per call, the way a
// character-at-a-time program (a serializer, an escaper, a code generator)
// writes, with each library's per-byte call.
#include <cstdio>
#include <fstream>
#include <memory>

#include "core/content.hpp"
#include "core/io.hpp"
#include "core/units.hpp"
#include "peers/c_rows.hpp"
#include "peers/fmt_output_file.hpp"
#include "peers/ofstream.hpp"
#include "peers/stdio_file.hpp"
#include "peers/stdio_unlocked.h"
#include "scenarios/byte_pattern.hpp"
#include "scenarios/bytes_platform.hpp"
#include "scenarios/scenarios.hpp"

namespace sluice::bench {
namespace {

void run_fwrite(const target& t, std::uint64_t size) {
  stdio_file out(t.path, 0);
  std::FILE* f = out.get();
  put_each(size, [f](char c) { std::fwrite(&c, 1, 1, f); });
  out.finish(t.sync);
}

void run_fwrite_unlocked(const target& t, std::uint64_t size) {
  stdio_file out(t.path, big_buffer_size);
  std::FILE* f = out.get();
  put_each(size, [f](char c) { SLUICE_BENCH_FWRITE_UNLOCKED(&c, 1, 1, f); });
  out.finish(t.sync);
}

// `buffer`: 0 for stdio's own choice (st_blksize, 4 KiB on most disks),
// which is what a program that never calls setvbuf gets.
void run_putc_unlocked(const target& t, std::uint64_t size, std::size_t buffer) {
  stdio_file out(t.path, buffer);
  std::FILE* f = out.get();
  put_each(size, [f](char c) { SLUICE_BENCH_PUTC_UNLOCKED(c, f); });
  out.finish(t.sync);
}

void run_ofstream_put(const target& t, std::uint64_t size) {
  std::ofstream out(t.path, std::ios::binary);
  put_each(size, [&out](char c) { out.put(c); });
  finish(out, t);
}

// The limit for byte-at-a-time code: a pointer bump into a 256 KiB buffer
// and one write(2) each time it fills.
void run_hand_buffer(const target& t, std::uint64_t size) {
  raw_file out(t.path);
  auto buffer = std::make_unique_for_overwrite<char[]>(big_buffer_size);
  char* const begin = buffer.get();
  char* const end = begin + big_buffer_size;
  char* pos = begin;
  put_each(size, [&](char c) {
    if (pos == end) {
      out.write_all(begin, big_buffer_size);
      pos = begin;
    }
    *pos++ = c;
  });
  out.write_all(begin, static_cast<std::size_t>(pos - begin));
  out.finish(t.sync);
}

void run_sluice_put(const target& t, std::uint64_t size) {
  sluice::writer out = open_writer(t);
  put_each(size, [&out](char c) { out.put(c); });
  finish(out, t);
}

// The rows written in C (peers/c_bytes.c) index the same pattern.
static_assert(C_ROWS_PATTERN_PERIOD == pattern_period);

void run_c_sluice_put(const target& t, std::uint64_t size) {
  check_sluice_c(c_rows_sluice_put(t.path, pattern(), size, t.buffer_size, t.sync));
}

// `buffer`: as run_putc_unlocked's.
void run_c_putc(const target& t, std::uint64_t size, std::size_t buffer) {
  const char* call = "";
  int error = c_rows_stdio_putc(t.path, pattern(), size, buffer, t.sync, &call);
  check_stdio_c(error, call, t.path);  // `call` read after the call
}

void run_c_putc_unlocked(const target& t, std::uint64_t size, std::size_t buffer) {
  const char* call = "";
  int error = c_rows_stdio_putc_unlocked(t.path, pattern(), size, buffer, t.sync, &call);
  check_stdio_c(error, call, t.path);
}

}  // namespace

std::vector<bench_case> make_bytes(std::uint64_t size) {
  bench_case c{
      "bytes", "bytes: " + format_size(size) + " written one byte at a time", size, {}, {}};
  c.methods.push_back(bind_method("fwrite", role::peer, run_fwrite, size));
  c.methods.push_back(
      bind_method(std::string(SLUICE_BENCH_FWRITE_UNLOCKED_NAME) + ", 256 KiB setvbuf", role::peer,
                  run_fwrite_unlocked, size));
  add_platform_bytes_rows(c, size);
  c.methods.push_back(bind_method(
      std::string(SLUICE_BENCH_PUTC_UNLOCKED_NAME) + ", stdio's buffer", role::peer,
      [](const target& t, std::uint64_t n) { run_putc_unlocked(t, n, 0); }, size));
  c.methods.push_back(bind_method(
      std::string(SLUICE_BENCH_PUTC_UNLOCKED_NAME) + ", 256 KiB setvbuf", role::peer,
      [](const target& t, std::uint64_t n) { run_putc_unlocked(t, n, big_buffer_size); }, size));
  c.methods.push_back(bind_method("std::ofstream::put", role::peer, run_ofstream_put, size));
  // fmt::ostream has no put(): print("{}", c) is its one-character call.
  add_fmt_peer(c, "fmt::output_file print(\"{}\", c)", [size](auto& out, const target&) {
    put_each(size, [&out](char c) { out.print("{}", c); });
  });
  c.methods.push_back(bind_method("hand buffer + write(2)", role::limit, run_hand_buffer, size));
  c.methods.push_back(bind_method("sluice writer::put", role::sluice, run_sluice_put, size));
  // The same from C (compiled as C11): stdio as a C program calls it, and
  // the C API's inline sluice_writer_put.
  c.methods.push_back(bind_method(
      "C putc, stdio's buffer", role::peer,
      [](const target& t, std::uint64_t n) { run_c_putc(t, n, 0); }, size));
  c.methods.push_back(bind_method(
      std::string("C ") + SLUICE_BENCH_PUTC_UNLOCKED_NAME + ", 256 KiB setvbuf", role::peer,
      [](const target& t, std::uint64_t n) { run_c_putc_unlocked(t, n, big_buffer_size); }, size));
  c.methods.push_back(bind_method("C sluice_writer_put", role::sluice, run_c_sluice_put, size));
  return {std::move(c)};
}

}  // namespace sluice::bench
