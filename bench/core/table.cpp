// sluice-bench: the tables of the report. Ratios are shown where they say
// something: sluice rows against the best peer and the limit, peers against
// the limit.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include "core/recommend.hpp"
#include "core/report.hpp"
#include "core/units.hpp"

namespace sluice::bench {
namespace {

std::string sync_phrase(const run_settings& settings) {
  return settings.sync ? "figures include the final fdatasync"
                       : "figures exclude fdatasync (page cache)";
}

std::string ratio_cell(const std::optional<double>& ratio) {
  if (!ratio) return "";
  char text[32];
  std::snprintf(text, sizeof text, "%.2fx", *ratio);
  return text;
}

// The two ratio cells of a row: what its role makes meaningful.
std::pair<std::string, std::string> ratio_cells(const row& r) {
  switch (r.m->kind) {
    case role::peer: return {"", ratio_cell(r.vs_limit)};
    case role::limit: return {"-", ratio_cell(r.vs_limit)};
    case role::sluice: return {ratio_cell(r.vs_best_peer), ratio_cell(r.vs_limit)};
  }
  return {};
}

void print_row(std::ostream& out, const row& r, int name_width) {
  std::string name = display_name(*r.m);
  char line[512];
  if (!r.mb_per_s) {
    std::snprintf(line, sizeof line, "  %-*s failed: %s", name_width, name.c_str(),
                  r.result->error.c_str());
  } else {
    auto [vs_peer, vs_limit] = ratio_cells(r);
    std::snprintf(line, sizeof line, "  %-*s %9.1f %14s %9s  %s", name_width, name.c_str(),
                  *r.mb_per_s, vs_peer.c_str(), vs_limit.c_str(), r.result->observed.c_str());
  }
  std::string text = line;
  text.erase(text.find_last_not_of(' ') + 1);
  out << text << '\n';
}

// Where a reading table's input was when each run started.
void print_input_state(std::ostream& out, const case_summary& summary) {
  if (summary.bench->input_state == input_cache::cached) {
    out << "  (cached: the input is in the page cache when each run starts)\n";
    return;
  }
  out << "  (cold: the input is fdatasync'ed and dropped from the page cache before each run, "
         "untimed)\n";
  if (summary.input_left_cached > 0)
    out << "  (but the filesystem kept up to " << format_size(summary.input_left_cached)
        << " of it cached after a drop, as tmpfs does: these figures are not cold)\n";
}

bool observes(const bench_case& bench) {
  return std::any_of(bench.methods.begin(), bench.methods.end(),
                     [](const method& m) { return static_cast<bool>(m.observe); });
}

}  // namespace

void print_header(std::ostream& out, const run_description& run) {
  const machine_info& m = run.machine;
  out << "sluice-bench  dir=" << run.dir << " (" << m.filesystem
      << ")  repeat=" << run.settings.repeat
      << "  sluice buffer=" << format_size(sluice_buffer_size(run.settings))
      << " (direct: " << format_size(sluice_direct_buffer_size(run.settings))
      << ", readers: " << format_size(sluice_reader_buffer_size(run.settings)) << ")  "
      << sync_phrase(run.settings) << "\n"
      << m.cpu << ", " << m.cores << " cores, " << m.kernel << ", " << m.date
      << "; MB/s = 10^6 bytes per second\n";
}

void print_table(std::ostream& out, const case_summary& summary) {
  std::size_t width = std::string_view("method").size();
  for (const method& m : summary.bench->methods) width = std::max(width, display_name(m).size());
  char heading[256];
  std::snprintf(heading, sizeof heading, "  %-*s %9s %14s %9s%s\n", static_cast<int>(width),
                "method", "MB/s", "vs best peer", "vs limit",
                observes(*summary.bench) ? "  after close" : "");
  out << '\n' << summary.bench->title << '\n';
  if (reads(*summary.bench)) print_input_state(out, summary);
  if (summary.bench->syncs_each_commit)
    out << "  (every method makes its writes durable itself: these figures include the "
           "fdatasync, --sync or not)\n";
  out << heading;
  for (const row& r : summary.rows) print_row(out, r, static_cast<int>(width));
  for (const std::string& note : summary.bench->skipped) out << "  " << note << '\n';
  if (!summary.bench->same_bytes)
    out << "  (the methods write different files: each run's records were read back\n"
           "  through the method's own API and checked, untimed)\n";
}

void print_footer(std::ostream& out, const run_description& run) {
  out << "\nEach figure is the median of " << run.settings.repeat
      << " runs; the methods of a table take turns, one run each per\n"
         "round, with no untimed warm-up run. A run opens a fresh file, writes it, "
      << (run.settings.sync ? "fdatasyncs it\nand closes it, all timed" : "closes it,\nall timed")
      << "; its bytes are then checked against those of the table's first good run\n"
         "(or, where the methods write different files, read back through their own API),\n"
         "and the filesystem synced (untimed) so the next run has nothing left to write back.\n"
         "In a reading table, a run reads the table's input (written once, untimed) and\n"
         "computes a result, which must equal that of the table's first good run.\n"
         "vs best peer: speed over that of the fastest non-sluice method of the table\n"
         "(journal: of the same number of committing threads; blank where there is none).\n"
         "vs limit: speed over that of the raw system call method marked [limit].\n";
}

std::string report_text(const run_description& run, const std::vector<case_summary>& cases) {
  std::ostringstream text;
  print_header(text, run);
  for (const case_summary& summary : cases) print_table(text, summary);
  print_footer(text, run);
  print_recommendation(text, judge(cases));
  return text.str();
}

}  // namespace sluice::bench
