// sluice-bench: the scenarios, each a factory of cases sized by --size.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/bench_case.hpp"

namespace sluice::bench {

struct scenario {
  std::string_view name;
  std::string_view summary;    // one line for --list and --help
  std::uint64_t default_size;  // bytes, when --size is not given
  std::vector<bench_case> (*make)(std::uint64_t size);
  // The most the scenario's runs have on disk at once at `size`, estimated
  // high from the size alone (making the cases of an absurd size would take
  // long): each run's output, its companion, the runner's reference copy of
  // the first good output, an input file, a journal's preallocated
  // segments, a database's own files. Saturates at 2^64 - 1.
  std::uint64_t (*disk_needed)(std::uint64_t size);
  // Whether a run without --scenario runs it (tune: only when asked).
  bool by_default = true;
};

// bytes, text, convert, bin2text, text2bin, gather, patch, large, fragment, durable, journal,
// tune, read, lines, numbers, scatter: the order of the report.
std::span<const scenario> scenarios();

std::vector<bench_case> make_bytes(std::uint64_t size);
std::vector<bench_case> make_text(std::uint64_t size);
std::vector<bench_case> make_convert(std::uint64_t size);
std::vector<bench_case> make_bin2text(std::uint64_t size);
std::vector<bench_case> make_text2bin(std::uint64_t size);
std::vector<bench_case> make_gather(std::uint64_t size);
std::vector<bench_case> make_patch(std::uint64_t size);
std::vector<bench_case> make_large(std::uint64_t size);
std::vector<bench_case> make_fragment(std::uint64_t size);
std::vector<bench_case> make_durable(std::uint64_t size);
std::vector<bench_case> make_journal_case(std::uint64_t size);
std::vector<bench_case> make_tune(std::uint64_t size);
std::uint64_t journal_disk_needed(std::uint64_t size);
std::vector<bench_case> make_read(std::uint64_t size);
std::vector<bench_case> make_lines(std::uint64_t size);
std::vector<bench_case> make_numbers(std::uint64_t size);
std::vector<bench_case> make_scatter(std::uint64_t size);
std::uint64_t scatter_input_size(std::uint64_t size);

}  // namespace sluice::bench
