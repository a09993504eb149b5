// sluice-bench "tune": sluice::writer with one of its options changed at a
// time, against the same writer with sluice's defaults: a table per option
// (buffer_size, preallocate, caching, write_behind), in writer_options'
// order. Every run writes the file as 100-byte records and makes it durable
// (durability_mode::data_on_close), so that the disk, which is what these
// options are about, is in every figure. --recommend reads the tables
// (core/recommend.hpp); `tune` is not in the default set.
#include <algorithm>
#include <cstddef>
#include <memory>
#include <sluice/writer.hpp>
#include <span>
#include <string>
#include <vector>

#include "core/content.hpp"
#include "core/units.hpp"
#include "scenarios/scenarios.hpp"

namespace sluice::bench {
namespace {

constexpr std::size_t record_size = 100;

struct tune_work {
  std::vector<char> records;  // written again and again
  std::uint64_t size;         // the file's size
};
using content = std::shared_ptr<const tune_work>;

void run_writer(const target& t, const content& work, writer_options options) {
  options.durability = durability_mode::data_on_close;
  sluice::writer out(t.path, options);
  const std::vector<char>& records = work->records;
  std::size_t at = 0;
  for (std::uint64_t done = 0; done < work->size; done += record_size) {
    auto n = static_cast<std::size_t>(std::min<std::uint64_t>(record_size, work->size - done));
    out.write(std::as_bytes(std::span(records.data() + at, n)));
    at = at + record_size == records.size() ? 0 : at + record_size;
  }
  out.close();
}

// A row that writes with `options`, marked for --recommend as setting
// `assignment` (empty: sluice's defaults).
method writer_row(std::string name, const content& work, writer_options options,
                  std::string assignment) {
  return tuning_row(
      bind_method(
          std::move(name), role::sluice,
          [options](const target& t, const content& w) { run_writer(t, w, options); }, work),
      "writer_options", std::move(assignment));
}

method defaults_row(const content& work) {
  return writer_row("sluice writer, defaults", work, {}, "");
}

bench_case tune_case(const std::string& option, const content& work, std::uint64_t size) {
  bench_case c{
      "tune",
      "tune " + option + ": " + format_size(size) + " as 100 B records, fdatasync'ed at close",
      size,
      {defaults_row(work)},
      {}};
  c.syncs_each_commit = true;
  return c;
}

}  // namespace

std::vector<bench_case> make_tune(std::uint64_t size) {
  constexpr std::size_t records_kept = 655;  // 64 KiB of records, then again
  auto work =
      std::make_shared<const tune_work>(tune_work{pattern_bytes(records_kept * record_size), size});
  std::vector<bench_case> cases;

  bench_case buffer = tune_case("buffer_size", work, size);
  for (std::size_t kib : {64, 1024, 4096}) {
    std::string value =
        kib < 1024 ? std::to_string(kib) + " << 10" : std::to_string(kib / 1024) + " << 20";
    buffer.methods.push_back(writer_row("sluice writer, " + format_size(kib * 1024) + " buffer",
                                        work, {.buffer_size = kib * 1024},
                                        "buffer_size = " + value));
  }
  cases.push_back(std::move(buffer));

  bench_case preallocate = tune_case("preallocate", work, size);
  preallocate.methods.push_back(writer_row("sluice writer, preallocate the size", work,
                                           {.preallocate = size},
                                           "preallocate = " + std::to_string(size)));
  cases.push_back(std::move(preallocate));

  bench_case caching = tune_case("caching", work, size);
  caching.methods.push_back(writer_row("sluice writer, no_cache", work,
                                       {.caching = caching_mode::no_cache},
                                       "caching = sluice::caching_mode::no_cache"));
  caching.methods.push_back(writer_row("sluice writer, direct", work,
                                       {.caching = caching_mode::direct},
                                       "caching = sluice::caching_mode::direct"));
  cases.push_back(std::move(caching));

  bench_case behind = tune_case("write_behind", work, size);
  behind.methods.push_back(writer_row("sluice writer, write_behind", work, {.write_behind = true},
                                      "write_behind = true"));
  cases.push_back(std::move(behind));
  return cases;
}

}  // namespace sluice::bench
