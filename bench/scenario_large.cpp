// sluice-bench "large": a big file written in 1 MiB pieces, where the cost
// is the kernel's copy into the page cache (and the disk, with --sync), and
// a writer can only lose speed by copying through its buffer. The "after
// close" column shows how much of the file each way leaves in the page
// cache: caching::no_cache waits for the disk to keep that small, and
// caching::direct does not pass through it at all.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <span>
#include <system_error>

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

// The limit for direct I/O: O_DIRECT write(2)s of 1 MiB from a page-aligned
// buffer; a last piece that is not whole 4 KiB blocks is written padded,
// then the file is cut to its size.
void run_direct_write(const target& t, const content& file) {
  constexpr std::size_t block = 4096;
  std::unique_ptr<char, decltype(&std::free)> buffer(
      static_cast<char*>(std::aligned_alloc(block, piece_size)), &std::free);
  std::copy(file->piece.begin(), file->piece.end(), buffer.get());
  raw_file out(t.path, O_WRONLY | O_DIRECT);
  write_pieces(*file, [&](const char*, std::size_t n) {
    out.write_all(buffer.get(), (n + block - 1) / block * block);
  });
  if (::ftruncate(out.fd(), static_cast<off_t>(file->size)) != 0)
    throw std::system_error(errno, std::generic_category(), "ftruncate");
  out.finish(t.sync);
}

void run_sluice_write(const target& t, const content& file, sluice::writer_options options) {
  sluice::writer out = open_writer(t, options);
  write_pieces(*file, [&out](const char* data, std::size_t n) {
    out.write(std::as_bytes(std::span(data, n)));
  });
  finish(out, t);
}

std::string cached_after(const target& t) { return cached_of(t.path); }

}  // namespace

std::vector<bench_case> make_large(std::uint64_t size) {
  auto file = std::make_shared<const large_file>(large_file{pattern_bytes(piece_size), size});
  bench_case c{"large", "large: " + format_size(size) + " written in 1 MiB pieces", size, {}, {}};
  c.methods.push_back(
      observing(bind_method("write(2), 1 MiB a call", role::limit, run_write, file), cached_after));
  c.methods.push_back(
      observing(bind_method(
                    "sluice writer::write", role::sluice,
                    [](const target& t, const content& f) { run_sluice_write(t, f, {}); }, file),
                cached_after));
  // The ways past the page cache in a table of their own: on a VM, a
  // buffered run that follows one of them pays for memory the host took
  // back meanwhile (docs/performance.md), which would skew the first table.
  bench_case d{"large",
               "large, past the page cache: " + format_size(size) + " in 1 MiB pieces",
               size,
               {},
               {}};
  d.methods.push_back(
      observing(bind_method("O_DIRECT write(2), 1 MiB a call", role::limit, run_direct_write, file),
                cached_after));
  d.methods.push_back(observing(bind_method(
                                    "sluice writer, direct", role::sluice,
                                    [](const target& t, const content& f) {
                                      run_sluice_write(t, f, {.caching = caching::direct});
                                    },
                                    file),
                                cached_after));
  d.methods.push_back(observing(bind_method(
                                    "sluice writer, direct + write_behind", role::sluice,
                                    [](const target& t, const content& f) {
                                      run_sluice_write(
                                          t, f, {.caching = caching::direct, .write_behind = true});
                                    },
                                    file),
                                cached_after));
  d.methods.push_back(observing(bind_method(
                                    "sluice writer, no_cache", role::sluice,
                                    [](const target& t, const content& f) {
                                      run_sluice_write(t, f, {.caching = caching::no_cache});
                                    },
                                    file),
                                cached_after));
  return {std::move(c), std::move(d)};
}

}  // namespace sluice::bench
