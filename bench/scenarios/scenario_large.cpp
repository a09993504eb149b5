// sluice-bench "large": a big file written in 1 MiB pieces, where the cost
// is the kernel's copy into the page cache (and the disk, with --sync), and
// a writer can only lose speed by copying through its buffer. The "after
// close" column shows how much of the file each way leaves in the page
// cache: caching_mode::no_cache waits for the disk to keep that small, and
// caching_mode::direct does not pass through it at all.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <span>
#include <system_error>

#include "core/content.hpp"
#ifdef SLUICE_BENCH_HAVE_URING
#include "scenarios/direct_in_flight.hpp"
#endif
#include "core/io.hpp"
#include "core/observe.hpp"
#include "core/units.hpp"
#include "scenarios/scenarios.hpp"

namespace sluice::bench {
namespace {

constexpr std::size_t piece_size = 1024 * 1024;
constexpr std::size_t direct_block = 4096;  // O_DIRECT alignment of the limits' writes

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

using aligned_piece = std::unique_ptr<char, decltype(&std::free)>;

// The file's piece in a page-aligned buffer, as O_DIRECT needs it.
aligned_piece aligned_copy(const large_file& file) {
  aligned_piece buffer(static_cast<char*>(std::aligned_alloc(direct_block, piece_size)),
                       &std::free);
  if (!buffer) throw std::bad_alloc();
  std::copy(file.piece.begin(), file.piece.end(), buffer.get());
  return buffer;
}

void cut_to_size(const raw_file& out, std::uint64_t size) {
  if (::ftruncate(out.fd(), static_cast<off_t>(size)) != 0)
    throw std::system_error(errno, std::generic_category(), "ftruncate");
}

// A limit for direct I/O: O_DIRECT write(2)s of 1 MiB from a page-aligned
// buffer; a last piece that is not whole 4 KiB blocks is written padded,
// then the file is cut to its size.
void run_direct_write(const target& t, const content& file) {
  aligned_piece buffer = aligned_copy(*file);
  raw_file out(t.path, O_WRONLY | O_DIRECT);
  write_pieces(*file, [&](const char*, std::size_t n) {
    out.write_all(buffer.get(), (n + direct_block - 1) / direct_block * direct_block);
  });
  cut_to_size(out, file->size);
  out.finish(t.sync);
}

#ifdef SLUICE_BENCH_HAVE_URING
// The other limit for direct I/O: the same writes, 8 in flight (io_uring).
void run_direct_in_flight(const target& t, const content& file) {
  aligned_piece buffer = aligned_copy(*file);
  raw_file out(t.path, O_WRONLY | O_DIRECT);
  write_direct_in_flight(out.fd(), buffer.get(), piece_size, file->size, direct_block, 8);
  cut_to_size(out, file->size);
  out.finish(t.sync);
}
#endif

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
  c.methods.push_back(observing(
      bind_method(
          "sluice writer::write, write_behind", role::sluice,
          [](const target& t, const content& f) { run_sluice_write(t, f, {.write_behind = true}); },
          file),
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
#ifdef SLUICE_BENCH_HAVE_URING
  d.methods.push_back(observing(bind_method("O_DIRECT io_uring, 8 x 1 MiB in flight", role::limit,
                                            run_direct_in_flight, file),
                                cached_after));
#else
  d.skipped.emplace_back("O_DIRECT io_uring limit: skipped, liburing not found at build time");
#endif
  d.methods.push_back(observing(bind_method(
                                    "sluice writer, direct", role::sluice,
                                    [](const target& t, const content& f) {
                                      run_sluice_write(t, f, {.caching = caching_mode::direct});
                                    },
                                    file),
                                cached_after));
  d.methods.push_back(observing(
      bind_method(
          "sluice writer, direct + write_behind", role::sluice,
          [](const target& t, const content& f) {
            run_sluice_write(t, f, {.caching = caching_mode::direct, .write_behind = true});
          },
          file),
      cached_after));
  d.methods.push_back(observing(bind_method(
                                    "sluice writer, no_cache", role::sluice,
                                    [](const target& t, const content& f) {
                                      run_sluice_write(t, f, {.caching = caching_mode::no_cache});
                                    },
                                    file),
                                cached_after));
  return {std::move(c), std::move(d)};
}

}  // namespace sluice::bench
