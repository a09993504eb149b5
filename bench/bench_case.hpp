// sluice-bench: what a measured case is made of. A scenario (bytes, text,
// gather, large) yields one or more cases; each case is one table of the
// report, in which every method writes the very same bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace sluice::bench {

// How a method takes part in the ratios of its table.
enum class role {
  peer,    // what a user would pick instead of sluice
  limit,   // the raw system call loop: what no buffered writer can beat
  sluice,  // sluice itself
};

// Where one run writes, and whether its figure includes the final fdatasync.
struct target {
  const char* path;
  bool sync;
  std::size_t buffer_size;  // sluice writers' buffer; 0: sluice's default
};

// One way of writing a case's bytes. run() creates or truncates
// target.path, writes everything, fdatasyncs when target.sync, closes, and
// throws on any failure.
struct method {
  std::string name;
  role kind;
  std::function<void(const target&)> run;
};

// The name the report shows: the limit is marked "[limit]".
inline std::string display_name(const method& m) {
  return m.kind == role::limit ? m.name + " [limit]" : m.name;
}

// A method whose runs call run(t, data); it keeps its own copy of `data`.
template <class Run, class Data>
method bind_method(std::string name, role kind, Run run, Data data) {
  return {std::move(name), kind, [run, data = std::move(data)](const target& t) { run(t, data); }};
}

// One table: `bytes` bytes written by each method.
struct bench_case {
  std::string scenario;  // the scenario's name, e.g. "gather"
  std::string title;     // e.g. "gather: 64 MiB as 64 x 16384 pieces of 64 B"
  std::uint64_t bytes;   // what every method writes
  std::vector<method> methods;
  std::vector<std::string> skipped;  // methods not built in, with the reason
};

}  // namespace sluice::bench
