// sluice-bench: what a measured case is made of. A scenario (bytes, text,
// gather, large; read, lines...) yields one or more cases; each case is one
// table of the report, in which every method writes the very same bytes or,
// in a reading case, reads the same input and computes the same result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
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

// The role's name in the reports: "peer", "limit" or "sluice".
inline const char* role_name(role kind) {
  switch (kind) {
    case role::peer: return "peer";
    case role::limit: return "limit";
    case role::sluice: return "sluice";
  }
  return "";
}

// Where one run writes, and whether its figure includes the final fdatasync.
struct target {
  const char* path;
  const char* companion;  // a second file, for methods that write two
  const char* input;      // the file bench_case::input wrote, for methods that read one
  bool sync;
  std::size_t buffer_size;  // sluice writers' buffer; 0: sluice's default
};

// What --recommend reads of a row that runs sluice with one of its options
// set (core/recommend.hpp): the struct (`options`: "writer_options",
// "journal_options") and the option as C++ would set it ("buffer_size =
// 1 << 20"). The row with `options` and no assignment runs with sluice's
// defaults: the baseline the others of its table (and group) are held to.
struct tuning {
  std::string options;     // empty: not a tuning row
  std::string assignment;  // "<field> = <value>"; empty: the baseline
};

// One way of writing a case's bytes, or of reading its input. run() creates
// or truncates target.path, writes everything, fdatasyncs when target.sync,
// closes, and throws on any failure. A reading method has `read` instead.
struct method {
  std::string name;
  role kind;
  std::function<void(const target&)> run;
  // Optional: after each good run, untimed, what the report shows of the
  // files in its "after close" column (extents, cached MiB).
  std::function<std::string(const target&)> observe = {};
  // Optional: before each run, untimed, puts in place what the run starts
  // from (an existing journal, say) at target.path; the filesystem is then
  // synced before the clock starts.
  std::function<void(const target&)> prepare = {};
  // Not 0: "vs best peer" compares the row only with the peers of the same
  // group (the journal's: its committing threads), and stays empty without
  // one. 0: with every peer of the table.
  int group = 0;
  // A reading method, whose `run` is empty (its case has an input): reads
  // target.input, computes the case's result and returns it, throwing on
  // any failure. Every run's result must equal that of the case's first
  // good run, byte for byte.
  std::function<std::string(const target&)> read = {};
  // For --recommend, the option this row sets (see tuning).
  tuning tunes = {};
};

// The name the report shows: the limit is marked "[limit]".
inline std::string display_name(const method& m) {
  return m.kind == role::limit ? m.name + " [limit]" : m.name;
}

// `m`, with `observe` reporting on its files after each run.
inline method observing(method m, std::function<std::string(const target&)> observe) {
  m.observe = std::move(observe);
  return m;
}

// `m` in group `group` (see method::group).
inline method in_group(method m, int group) {
  m.group = group;
  return m;
}

// `m`, marked as running sluice with `assignment` of `options` set (empty:
// with its defaults; see tuning).
inline method tuning_row(method m, std::string options, std::string assignment = {}) {
  m.tunes = {std::move(options), std::move(assignment)};
  return m;
}

// A method whose runs call run(t, data); it keeps its own copy of `data`.
template <class Run, class Data>
method bind_method(std::string name, role kind, Run run, Data data) {
  return {std::move(name), kind, [run, data = std::move(data)](const target& t) { run(t, data); }};
}

// A reading method whose runs call read(t, data) and return its result; it
// keeps its own copy of `data`.
template <class Read, class Data>
method bind_reader(std::string name, role kind, Read read, Data data) {
  method m{std::move(name), kind, {}};
  m.read = [read, data = std::move(data)](const target& t) -> std::string { return read(t, data); };
  return m;
}

// A reading method that needs nothing but the input.
inline method bind_reader(std::string name, role kind, std::string (*read)(const target&)) {
  method m{std::move(name), kind, {}};
  m.read = read;
  return m;
}

// Writes, untimed, the file a reading case's methods read, at `path`.
using input_maker = std::shared_ptr<const std::function<void(const char* path)>>;

inline input_maker make_input_maker(std::function<void(const char* path)> write) {
  return std::make_shared<const std::function<void(const char* path)>>(std::move(write));
}

// Where a reading case's input is when each of its runs starts.
enum class input_cache {
  cached,  // in the page cache, as a file just written or read is
  cold,    // dropped from it (fdatasync, then POSIX_FADV_DONTNEED), untimed
};

// One table: `bytes` bytes written (or read) by each method.
struct bench_case {
  std::string scenario;  // the scenario's name, e.g. "gather"
  std::string title;     // e.g. "gather: 64 MiB as 64 x 16384 pieces of 64 B"
  std::uint64_t bytes;   // what every method writes to target.path, or reads
  std::vector<method> methods;
  std::vector<std::string> skipped;  // methods not built in, with the reason
  // All a run writes, if more than bytes: then target.companion too, with
  // the same bytes as target.path, and checked like it. 0: bytes.
  std::uint64_t written = 0;
  // What MB/s counts, when it is neither: a converter's text input (the
  // text2bin scenario's, read from target.input), larger than the records
  // it writes. 0: written, else bytes.
  std::uint64_t measured = 0;
  // true: every run's target.path must hold the very bytes of the first
  // good run. false: the methods write different files (a database, a
  // journal directory), and each checks its own in `observe`.
  bool same_bytes = true;
  // true: every method makes its writes durable itself (each transaction,
  // or the file at close), so fdatasync is in every figure whether or not
  // --sync asks for the final one.
  bool syncs_each_commit = false;
  // Optional: writes, untimed, before the case's first run, the file its
  // methods read (target.input, in the work directory). Cases that follow
  // one another with the same maker (a scenario's tables) share the file,
  // written once; it is removed when a case with another input comes, or
  // at the end of the run.
  input_maker input = {};
  // For a case with an input: where it is when each run starts.
  input_cache input_state = input_cache::cached;
};

// Lists the row `name` among c.skipped as not run on this platform, for
// `reason`: where a row would need what the system lacks (Windows: O_DIRECT,
// io_uring, writev, dropping the page cache), it is named, never absent.
inline void add_not_run(bench_case& c, const std::string& name, const std::string& reason) {
  c.skipped.push_back(name + ": not run, " + reason);
}

// Every method of `c` listed as not run for `reason`; the table stays, empty.
inline void not_run_all(bench_case& c, const std::string& reason) {
  for (const method& m : c.methods) add_not_run(c, display_name(m), reason);
  c.methods.clear();
}

// The bytes MB/s counts: bench_case::measured, written or bytes.
inline std::uint64_t measured_bytes(const bench_case& c) {
  return c.measured ? c.measured : c.written ? c.written : c.bytes;
}

// True if the methods of `c` read its input and return a result rather
// than write a file.
inline bool reads(const bench_case& c) {
  return !c.methods.empty() && static_cast<bool>(c.methods.front().read);
}

}  // namespace sluice::bench
