// sluice-bench "read": the bytes of a file, read through once, in the page
// cache and cold (dropped from it before each run, untimed). Each method
// computes the XOR of the file's 8-byte words and its size (word_digest),
// whatever its chunks: the work a reader's caller does with the bytes is
// the same for all, and small. The input is pseudo-random bytes, written
// once for both tables.
#include <algorithm>
#include <memory>
#include <sluice/reader.hpp>
#include <span>
#include <string>
#include <vector>

#include "core/content.hpp"
#include "core/io.hpp"
#include "core/page_buffer.hpp"
#include "core/page_cache.hpp"
#include "core/units.hpp"
#include "peers/ifstream.hpp"
#include "peers/mapped_input.hpp"
#include "peers/stdio_input.hpp"
#include "scenarios/scenarios.hpp"
#include "scenarios/word_digest.hpp"

namespace sluice::bench {
namespace {

constexpr std::size_t chunk_size = 1024 * 1024;

std::string read_read(const target& t) {
  raw_input in(t.input);
  page_buffer chunk(chunk_size);
  word_digest digest;
  while (std::size_t n = in.read_some(chunk.data(), chunk.size())) digest.add(chunk.data(), n);
  return digest.text();
}

std::string read_fread(const target& t) {
  stdio_input in(t.input);
  page_buffer chunk(chunk_size);
  word_digest digest;
  while (std::size_t n = std::fread(chunk.data(), 1, chunk.size(), in.get()))
    digest.add(chunk.data(), n);
  in.finish();
  return digest.text();
}

std::string read_ifstream(const target& t) {
  input_ifstream file(t.input, 0);
  std::ifstream& in = file.get();
  page_buffer chunk(chunk_size);
  word_digest digest;
  while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0)
    digest.add(chunk.data(), static_cast<std::size_t>(in.gcount()));
  file.finish();
  return digest.text();
}

std::string read_mmap(const target& t) {
  mapped_input in(t.input);
  word_digest digest;
  digest.add(in.bytes().data(), in.bytes().size());
  return digest.text();
}

// sluice, the loops a caller would write: the buffer's bytes in place
// (peek, consume), or copied into a chunk of the caller's as the peers do.
std::string read_sluice_peek(const target& t) {
  sluice::reader in(t.input, {.buffer_size = t.buffer_size});
  word_digest digest;
  for (auto bytes = in.peek(); !bytes.empty(); bytes = in.peek()) {
    digest.add(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    in.consume(bytes.size());
  }
  return digest.text();
}

std::string read_sluice_read_some(const target& t) {
  sluice::reader in(t.input, {.buffer_size = t.buffer_size});
  page_buffer chunk(chunk_size);
  word_digest digest;
  while (std::size_t n =
             in.read_some(std::as_writable_bytes(std::span(chunk.data(), chunk.size()))))
    digest.add(chunk.data(), n);
  return digest.text();
}

// One table: every way of reading the bytes, with the input `state`.
bench_case make_case(std::uint64_t size, const input_maker& input, input_cache state) {
  bench_case c{"read",
               "read: " + format_size(size) + ", " +
                   (state == input_cache::cold ? "cold (from the disk)" : "in the page cache"),
               size,
               {},
               {}};
  c.input = input;
  c.input_state = state;
  c.methods.push_back(bind_reader("read(2), 1 MiB a call", role::limit, read_read));
  c.methods.push_back(bind_reader("fread, 1 MiB a call", role::peer, read_fread));
  c.methods.push_back(bind_reader("std::ifstream::read, 1 MiB a call", role::peer, read_ifstream));
  c.methods.push_back(
      bind_reader(std::string(mapping_name) + ", the whole file", role::peer, read_mmap));
  c.methods.push_back(bind_reader("sluice peek + consume", role::sluice, read_sluice_peek));
  c.methods.push_back(
      bind_reader("sluice read_some, 1 MiB a call", role::sluice, read_sluice_read_some));
  return c;
}

}  // namespace

std::vector<bench_case> make_read(std::uint64_t size) {
  input_maker input = random_input(size);
  std::vector<bench_case> cases;
  cases.push_back(make_case(size, input, input_cache::cached));
  cases.push_back(make_case(size, input, input_cache::cold));
  if (page_cache_missing) not_run_all(cases.back(), page_cache_missing);
  return cases;
}

}  // namespace sluice::bench
