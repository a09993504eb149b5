#include "core/recommend.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

namespace sluice::bench {
namespace {

std::string field_of(const std::string& assignment) {
  return assignment.substr(0, assignment.find(" = "));
}

// MB/s of each good run of `r`, as a range; none for a failed row.
std::optional<speed_range> range_of(const case_summary& summary, const row& r) {
  if (!r.mb_per_s || r.result->seconds.empty()) return std::nullopt;
  auto [fastest_run, slowest_run] =
      std::minmax_element(r.result->seconds.begin(), r.result->seconds.end());
  double mb = static_cast<double>(measured_bytes(*summary.bench)) / 1e6;
  return speed_range{mb / *slowest_run, *r.mb_per_s, mb / *fastest_run};
}

// The baseline row of `r`'s struct and group in `summary`, if it ran.
std::optional<speed_range> baseline_of(const case_summary& summary, const row& r) {
  for (const row& other : summary.rows)
    if (other.m->tunes.options == r.m->tunes.options && other.m->tunes.assignment.empty() &&
        other.m->group == r.m->group)
      return range_of(summary, other);
  return std::nullopt;
}

bool clearly_faster(const option_verdict& v) {
  return v.gain() >= least_gain && v.best.slowest > v.baseline.fastest;
}

// Keeps, per option, the verdict of its fastest row.
void consider(std::vector<option_verdict>& verdicts, option_verdict candidate) {
  auto same = std::find_if(verdicts.begin(), verdicts.end(), [&](const option_verdict& v) {
    return v.options == candidate.options && v.field == candidate.field;
  });
  if (same == verdicts.end())
    verdicts.push_back(std::move(candidate));
  else if (candidate.gain() > same->gain())
    *same = std::move(candidate);
}

std::string format_mb(double mb_per_s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", mb_per_s);
  return text;
}

std::string format_gain(double gain) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2fx", gain);
  return text;
}

// "runs 410-450 MB/s against 320-350": how far apart the two rows' runs are.
std::string spread(const option_verdict& v) {
  return "runs " + format_mb(v.best.slowest) + "-" + format_mb(v.best.fastest) + " MB/s against " +
         format_mb(v.baseline.slowest) + "-" + format_mb(v.baseline.fastest);
}

std::string why_default(const option_verdict& v) {
  if (v.gain() < 1)
    return "the default was fastest; the best other, " + v.assignment + ", at " +
           format_gain(v.gain());
  if (v.gain() < least_gain)
    return v.assignment + " at " + format_gain(v.gain()) + ", less than " + format_gain(least_gain);
  return v.assignment + " at " + format_gain(v.gain()) + ", within the runs' spread";
}

void print_struct(std::ostream& out, const std::string& options,
                  const std::vector<option_verdict>& verdicts) {
  std::vector<const option_verdict*> chosen;
  for (const option_verdict& v : verdicts)
    if (v.options == options && v.recommended) chosen.push_back(&v);
  if (chosen.empty()) {
    out << "  sluice::" << options << " " << options << "{};  // sluice's defaults were fastest\n";
    return;
  }
  out << "  sluice::" << options << " " << options << "{\n";
  for (const option_verdict* v : chosen)
    out << "      ." << v->assignment << ",  // " << format_gain(v->gain()) << " the defaults ("
        << spread(*v) << ")\n";
  out << "  };\n";
}

}  // namespace

std::vector<option_verdict> judge(const std::vector<case_summary>& cases) {
  std::vector<option_verdict> verdicts;
  for (const case_summary& summary : cases) {
    for (const row& r : summary.rows) {
      const tuning& t = r.m->tunes;
      if (t.options.empty() || t.assignment.empty()) continue;
      std::optional<speed_range> baseline = baseline_of(summary, r);
      std::optional<speed_range> best = range_of(summary, r);
      if (!baseline || !best) continue;
      consider(verdicts, {t.options, field_of(t.assignment), t.assignment, summary.bench->title,
                          *best, *baseline});
    }
  }
  for (option_verdict& v : verdicts) v.recommended = clearly_faster(v);
  return verdicts;
}

void print_recommendation(std::ostream& out, const std::vector<option_verdict>& verdicts) {
  if (verdicts.empty()) return;
  out << "\nRecommended on this disk, from this run (each option against sluice's defaults in "
         "its table;\nkept only if at least "
      << format_gain(least_gain) << " by the median and every run faster):\n";
  std::vector<std::string> structs;
  for (const option_verdict& v : verdicts)
    if (std::find(structs.begin(), structs.end(), v.options) == structs.end())
      structs.push_back(v.options);
  for (const std::string& options : structs) print_struct(out, options, verdicts);
  bool any_default = std::any_of(verdicts.begin(), verdicts.end(),
                                 [](const option_verdict& v) { return !v.recommended; });
  if (!any_default) return;
  out << "  Left at the default:\n";
  for (const option_verdict& v : verdicts)
    if (!v.recommended)
      out << "    " << v.options << "::" << v.field << ": " << why_default(v) << " (" << spread(v)
          << ")\n";
}

}  // namespace sluice::bench
