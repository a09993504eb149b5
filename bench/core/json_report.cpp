// sluice-bench: the JSON report (--json), one object, whose every field
// docs/sluice-bench.md describes and docs/sluice-bench.schema.json lists:
//   {"schema_version" (1: fields are only added within a version), "tool", "mb" (bytes in an MB),
//   "dir", "machine": {...},
//    "settings": {"repeat", "sync_included", "sluice_buffer_size",
//                 "sluice_direct_buffer_size", "warmup"},
//    "scenarios": [names], "cases": [{"scenario", "title", "bytes" (the
//      output's), "written" (all a run writes), "measured" (what MB/s
//      counts: "written", or a converter's text input),
//      "syncs_each_commit" (fdatasync in every figure, whatever
//      sync_included says), "input" (a reading case's: {"cache": "cached" or
//      "cold", "left_cached_bytes": the most the filesystem kept cached after
//      a cold run's drop}; null for a writing case),
//      "methods": [{"name", "role", "runs_s", "median_s", "median_mb_per_s",
//                   "vs_best_peer", "vs_limit", "after_close", "error"}],
//      "skipped": [...]}]}
// A figure that does not exist (failed method, no limit) is null.
#include <nlohmann/json.hpp>

#include "core/report.hpp"
#include "core/units.hpp"

namespace sluice::bench {
namespace {

using json = nlohmann::ordered_json;

// Raised when a field is removed or changes meaning; adding one keeps it.
constexpr int schema_version = 1;

json value_or_null(const std::optional<double>& value) {
  return value ? json(*value) : json(nullptr);
}

json method_json(const row& r) {
  return {{"name", r.m->name},
          {"role", role_name(r.m->kind)},
          {"runs_s", r.result->seconds},
          {"median_s", value_or_null(r.median_seconds)},
          {"median_mb_per_s", value_or_null(r.mb_per_s)},
          {"vs_best_peer", value_or_null(r.vs_best_peer)},
          {"vs_limit", value_or_null(r.vs_limit)},
          {"after_close", r.result->observed.empty() ? json(nullptr) : json(r.result->observed)},
          {"error", r.result->error.empty() ? json(nullptr) : json(r.result->error)}};
}

json input_json(const case_summary& summary) {
  if (!reads(*summary.bench)) return nullptr;
  bool cold = summary.bench->input_state == input_cache::cold;
  return {{"cache", cold ? "cold" : "cached"}, {"left_cached_bytes", summary.input_left_cached}};
}

json case_json(const case_summary& summary) {
  json methods = json::array();
  for (const row& r : summary.rows) methods.push_back(method_json(r));
  const bench_case& bench = *summary.bench;
  return {{"scenario", bench.scenario},
          {"title", bench.title},
          {"bytes", bench.bytes},
          {"written", bench.written ? bench.written : bench.bytes},
          {"measured", measured_bytes(bench)},
          {"syncs_each_commit", bench.syncs_each_commit},
          {"input", input_json(summary)},
          {"methods", std::move(methods)},
          {"skipped", bench.skipped}};
}

json machine_json(const machine_info& m) {
  return {{"cpu", m.cpu},
          {"cores", m.cores},
          {"kernel", m.kernel},
          {"date", m.date},
          {"filesystem", m.filesystem}};
}

}  // namespace

void write_json(std::ostream& out, const run_description& run,
                const std::vector<case_summary>& cases) {
  json scenarios = json::array(), all_cases = json::array();
  for (const case_summary& summary : cases) {
    if (scenarios.empty() || scenarios.back() != summary.bench->scenario)
      scenarios.push_back(summary.bench->scenario);
    all_cases.push_back(case_json(summary));
  }
  json report = {{"schema_version", schema_version},
                 {"tool", "sluice-bench"},
                 {"mb", static_cast<long>(mb)},
                 {"dir", run.dir},
                 {"machine", machine_json(run.machine)},
                 {"settings",
                  {{"repeat", run.settings.repeat},
                   {"sync_included", run.settings.sync},
                   {"sluice_buffer_size", sluice_buffer_size(run.settings)},
                   {"sluice_direct_buffer_size", sluice_direct_buffer_size(run.settings)},
                   {"warmup", false}}},
                 {"scenarios", std::move(scenarios)},
                 {"cases", std::move(all_cases)}};
  out << report.dump(2) << '\n';
}

}  // namespace sluice::bench
