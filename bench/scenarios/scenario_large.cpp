// sluice-bench "large": a big file written in 1 MiB pieces, where the cost
// is the kernel's copy into the page cache (and the disk, with --sync), and
// a writer can only lose speed by copying through its buffer. The "after
// close" column shows how much of the file each way leaves in the page
// cache: caching_mode::no_cache waits for the disk to keep that small, and
// caching_mode::direct does not pass through it at all.
#include <memory>
#include <span>

#include "core/content.hpp"
#include "core/io.hpp"
#include "core/observe.hpp"
#include "core/units.hpp"
#include "scenarios/large_file.hpp"
#include "scenarios/scenarios.hpp"

namespace sluice::bench {
namespace {

using content = large_content;

void run_write(const target& t, const content& file) {
  raw_file out(t.path);
  write_pieces(*file, [&out](const char* data, std::size_t n) { out.write_all(data, n); });
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
  auto file = std::make_shared<const large_file>(large_file{pattern_bytes(large_piece_size), size});
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
  add_direct_limits(d, file, cached_after);
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
