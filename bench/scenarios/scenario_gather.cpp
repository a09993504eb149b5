// sluice-bench "gather": output that comes as many separate pieces (records,
// headers and payloads), in three shapes: 16384 x 64 B, 1000 x 1 KiB and
// 10 x 100 KiB. Each set of pieces is written again and again up to --size.
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <fstream>
#include <memory>
#include <span>

#include "core/content.hpp"
#include "core/io.hpp"
#include "core/units.hpp"
#include "peers/ofstream.hpp"
#include "peers/stdio_file.hpp"
#include "peers/stdio_unlocked.h"
#include "scenarios/scenarios.hpp"

namespace sluice::bench {
namespace {

// One set of pieces, back to back in `bytes`, described for each kind of call.
struct piece_set {
  std::vector<char> bytes;
  std::vector<io_piece> iov;                      // for writev
  std::vector<std::span<const std::byte>> spans;  // for sluice
  std::uint64_t rounds;                           // times the set is written
};
using pieces = std::shared_ptr<const piece_set>;  // shared by the methods of a case

pieces make_pieces(std::size_t count, std::size_t piece_size, std::uint64_t size) {
  auto set = std::make_shared<piece_set>();
  set->bytes = pattern_bytes(count * piece_size);
  for (std::size_t i = 0; i < count; ++i) {
    char* piece = set->bytes.data() + i * piece_size;
    set->iov.push_back({piece, piece_size});
    set->spans.push_back(std::as_bytes(std::span(piece, piece_size)));
  }
  set->rounds = std::max<std::uint64_t>(1, size / set->bytes.size());
  return set;
}

void run_write_each(const target& t, const pieces& set) {
  raw_file out(t.path);
  for (std::uint64_t round = 0; round < set->rounds; ++round)
    for (const io_piece& piece : set->iov)
      out.write_all(static_cast<const char*>(piece.iov_base), piece.iov_len);
  out.finish(t.sync);
}

// The buffered peers a program would reach for first: stdio and
// std::ofstream, each with a 256 KiB buffer, one call per piece.
void run_fwrite_unlocked(const target& t, const pieces& set) {
  stdio_file out(t.path, big_buffer_size);
  std::FILE* f = out.get();
  for (std::uint64_t round = 0; round < set->rounds; ++round)
    for (const io_piece& piece : set->iov)
      SLUICE_BENCH_FWRITE_UNLOCKED(piece.iov_base, 1, piece.iov_len, f);
  out.finish(t.sync);
}

void run_ofstream_write(const target& t, const pieces& set) {
  buffered_ofstream file(t.path);
  std::ofstream& out = file.get();
  for (std::uint64_t round = 0; round < set->rounds; ++round)
    for (const io_piece& piece : set->iov)
      out.write(static_cast<const char*>(piece.iov_base),
                static_cast<std::streamsize>(piece.iov_len));
  finish(out, t);
}

void run_writev(const target& t, const pieces& set) {
  raw_file out(t.path);
  for (std::uint64_t round = 0; round < set->rounds; ++round)
    out.writev_all(set->iov.data(), set->iov.size());
  out.finish(t.sync);
}

void run_sluice_write_each(const target& t, const pieces& set) {
  sluice::writer out = open_writer(t);
  for (std::uint64_t round = 0; round < set->rounds; ++round)
    for (std::span<const std::byte> piece : set->spans) out.write(piece);
  finish(out, t);
}

void run_sluice_write_gather(const target& t, const pieces& set) {
  auto out = sluice::file::open(t.path);
  for (std::uint64_t round = 0; round < set->rounds; ++round) out.write_gather(set->spans);
  finish(out, t);
}

bench_case make_case(std::size_t count, std::size_t piece_size, std::uint64_t size) {
  pieces set = make_pieces(count, piece_size, size);
  std::uint64_t bytes = set->rounds * set->bytes.size();
  bench_case c{"gather",
               "gather: " + format_size(bytes) + " as " + std::to_string(set->rounds) +
                   " rounds of " + std::to_string(count) + " pieces of " + format_size(piece_size),
               bytes,
               {},
               {}};
  c.methods.push_back(bind_method("write(2) per piece", role::peer, run_write_each, set));
  c.methods.push_back(
      bind_method(std::string(SLUICE_BENCH_FWRITE_UNLOCKED_NAME) + " per piece, 256 KiB setvbuf",
                  role::peer, run_fwrite_unlocked, set));
  c.methods.push_back(bind_method("std::ofstream::write per piece, 256 KiB buffer", role::peer,
                                  run_ofstream_write, set));
  add_vectored_row(c, bind_method("writev, IOV_MAX pieces a call", role::limit, run_writev, set));
  c.methods.push_back(
      bind_method("sluice writer::write per piece", role::sluice, run_sluice_write_each, set));
  c.methods.push_back(
      bind_method("sluice file::write_gather", role::sluice, run_sluice_write_gather, set));
  return c;
}

}  // namespace

std::vector<bench_case> make_gather(std::uint64_t size) {
  std::vector<bench_case> cases;
  cases.push_back(make_case(16384, 64, size));
  cases.push_back(make_case(1000, 1024, size));
  cases.push_back(make_case(10, 100 * 1024, size));
  return cases;
}

}  // namespace sluice::bench
