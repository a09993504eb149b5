// sluice-bench: measures, on the disk the user points it at, each way of
// writing and of reading a file side by side: sluice and the peers a user
// would pick instead. Runs the chosen scenarios in a fresh work directory, prints a
// table per case as it completes and, with --json, writes every figure;
// --report and --svg draw them.
// Exit status: 0, 1 if a method failed or the run could not be made, 2 for
// a usage error.
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <iostream>
#include <set>
#include <stdexcept>
#include <system_error>

#include "core/case_input.hpp"
#include "core/machine.hpp"
#include "core/options.hpp"
#include "core/progress.hpp"
#include "core/recommend.hpp"
#include "core/report.hpp"
#include "core/report_files.hpp"
#include "core/runner.hpp"
#include "core/summary.hpp"
#include "core/units.hpp"
#include "core/work_dir.hpp"
#include "scenarios/scenarios.hpp"

namespace sluice::bench {
namespace {

const scenario& find_scenario(const std::string& name) {
  for (const scenario& s : scenarios())
    if (s.name == name) return s;
  throw std::invalid_argument("unknown scenario '" + name + "'");
}

// Each scenario and the methods of its cases, each once (gather's three
// cases share theirs); the cases are made at 1 MiB just to name them.
void print_list(std::ostream& out) {
  for (const scenario& s : scenarios()) {
    out << s.name << ": " << s.summary << "\n";
    std::set<std::string> listed;
    for (const bench_case& c : s.make(1024 * 1024))
      for (const method& m : c.methods)
        if (listed.insert(m.name).second) out << "  " << display_name(m) << "\n";
  }
}

// The scenarios' size: --size, or each one's default.
std::uint64_t size_of(const scenario& s, const options& o) {
  return o.size ? o.size : s.default_size;
}

// Refuses, before anything is written, a run that could fill the
// filesystem of `parent`: the scenarios run one at a time, each removing
// what it wrote, so the largest of them must fit in the space free there
// (std::filesystem::space's available, statvfs's f_bavail on POSIX: what
// an unprivileged user may take), with 1 MiB more
// for the filesystem's own blocks. Throws std::runtime_error naming both
// figures and the directory.
void check_free_space(const std::filesystem::path& parent, const options& o) {
  const scenario* largest = nullptr;
  std::uint64_t needed = 0;
  for (const std::string& name : o.scenarios) {
    const scenario& s = find_scenario(name);
    std::uint64_t bytes = saturating_add(s.disk_needed(size_of(s, o)), 1024 * 1024);
    if (bytes <= needed) continue;
    largest = &s;
    needed = bytes;
  }
  std::error_code error;
  std::filesystem::space_info space = std::filesystem::space(parent, error);
  if (error)
    throw std::system_error(error, "cannot tell the free space of '" + parent.string() + "'");
  std::uint64_t free = space.available;
  if (!largest || needed <= free) return;
  throw std::runtime_error("not enough free space in '" + parent.string() + "': the " +
                           std::string(largest->name) + " scenario needs up to " +
                           format_size(needed) + " there at once, and " + format_size(free) +
                           " is free (a smaller --size, or another --dir)");
}

std::vector<bench_case> make_cases(const options& o) {
  std::vector<bench_case> cases;
  for (const std::string& name : o.scenarios) {
    const scenario& s = find_scenario(name);
    for (bench_case& c : s.make(size_of(s, o))) cases.push_back(std::move(c));
  }
  return cases;
}

std::size_t total_runs(const std::vector<bench_case>& cases, int repeat) {
  std::size_t methods = 0;
  for (const bench_case& c : cases) methods += c.methods.size();
  return methods * static_cast<std::size_t>(repeat);
}

std::size_t failures(const std::vector<case_summary>& summaries) {
  std::size_t failed = 0;
  for (const case_summary& summary : summaries)
    for (const row& r : summary.rows) failed += r.mb_per_s ? 0 : 1;
  return failed;
}

int run_bench(const options& o) {
  std::filesystem::path parent = o.dir.empty() ? default_parent() : std::filesystem::path(o.dir);
  check_free_space(parent, o);
  std::vector<bench_case> cases = make_cases(o);
  report_files reports(o, cases);
  work_dir dir(parent);
  case_input input(dir);
  run_description run{dir.path(), describe_machine(dir.path()), {o.repeat, o.sync, o.buffer_size}};
  print_header(std::cout, run);
  progress status(total_runs(cases, o.repeat));
  std::vector<case_result> results;
  results.reserve(cases.size());  // the summaries point into it
  std::vector<case_summary> summaries;
  for (const bench_case& c : cases) {
    results.push_back(run_case(c, dir, run.settings, input, status));
    status.clear();
    summaries.push_back(summarize(results.back()));
    print_table(std::cout, summaries.back());
    std::cout.flush();
  }
  print_footer(std::cout, run);
  print_recommendation(std::cout, judge(summaries));
  reports.write(run, summaries, report_text(run, summaries));
  std::size_t failed = failures(summaries);
  if (failed) std::cerr << "sluice-bench: " << failed << " method(s) failed; see their rows\n";
  return failed ? 1 : 0;
}

}  // namespace
}  // namespace sluice::bench

int main(int argc, char** argv) {
  // A file size limit (ulimit -f) is then EFBIG, which a method's row or
  // the report's error shows, rather than a death that leaves the work
  // directory behind. Windows has no such signal.
#ifdef SIGXFSZ
  std::signal(SIGXFSZ, SIG_IGN);
#endif
  auto parsed = sluice::bench::parse_options(argc, argv);
  if (const int* status = std::get_if<int>(&parsed)) return *status;
  const auto& o = std::get<sluice::bench::options>(parsed);
  try {
    if (o.list) {
      sluice::bench::print_list(std::cout);
      return 0;
    }
    return sluice::bench::run_bench(o);
  } catch (const std::exception& e) {
    std::cerr << "sluice-bench: " << e.what() << '\n';
    return 1;
  }
}
