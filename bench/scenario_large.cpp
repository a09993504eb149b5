// sluice-bench "large": a big file written in 1 MiB pieces, where the cost
// is the kernel's copy into the page cache (and the disk, with --sync), and
// a writer can only lose speed by copying through its buffer. The "after
// close" column shows how much of the file each way leaves in the page
// cache: caching::no_cache waits for the disk to keep that small, and
// caching::direct does not pass through it at all.
#include <algorithm>
#include <cstddef>
#include <memory>
#include <span>

#include "content.hpp"
#include "io.hpp"
#include "observe.hpp"
#include "scenarios.hpp"
#include "units.hpp"

namespace sluice::bench {
namespace {

constexpr std::size_t piece_size = 1024 * 1024;

struct large_file {
  std::vector<char> piece;  // written again and again
  std::uint64_t size;       // the file's size; the last piece may be shorter
};
using content = std::shared_ptr<const large_file>;  // shared by the methods

// Calls write(data, n) for the pieces that make up the file.
template <class Write>
void write_pieces(const large_file& file, Write&& write) {
  for (std::uint64_t done = 0; done < file.size; done += piece_size)
    write(file.piece.data(),
          static_cast<std::size_t>(std::min<std::uint64_t>(piece_size, file.size - done)));
}

void run_write(const target& t, const content& file) {
  raw_file out(t.path);
  write_pieces(*file, [&out](const char* data, std::size_t n) { out.write_all(data, n); });
  out.finish(t.sync);
}

void run_sluice_write(const target& t, const content& file, sluice::caching caching) {
  sluice::writer out(t.path, {.buffer_size = t.buffer_size, .caching = caching});
  write_pieces(*file, [&out](const char* data, std::size_t n) {
    out.write(std::as_bytes(std::span(data, n)));
  });
  finish(out, t);
}

std::string cached_after(const target& t) { return cached_of(t.path); }

method observed(method m) {
  m.observe = cached_after;
  return m;
}

}  // namespace

std::vector<bench_case> make_large(std::uint64_t size) {
  auto file = std::make_shared<const large_file>(large_file{pattern_bytes(piece_size), size});
  bench_case c{"large", "large: " + format_size(size) + " written in 1 MiB pieces", size, {}, {}};
  c.methods.push_back(
      observed(bind_method("write(2), 1 MiB a call", role::limit, run_write, file)));
  c.methods.push_back(observed(bind_method(
      "sluice writer::write", role::sluice,
      [](const target& t, const content& f) { run_sluice_write(t, f, caching::normal); }, file)));
  c.methods.push_back(observed(bind_method(
      "sluice writer, no_cache", role::sluice,
      [](const target& t, const content& f) { run_sluice_write(t, f, caching::no_cache); }, file)));
  c.methods.push_back(observed(bind_method(
      "sluice writer, direct", role::sluice,
      [](const target& t, const content& f) { run_sluice_write(t, f, caching::direct); }, file)));
  return {std::move(c)};
}

}  // namespace sluice::bench
