// sluice-bench "text2bin": the records of records.hpp as CSV, JSON Lines
// and XML (record_text.hpp: as sluice-bin2text writes them) turned back into
// the packed 26-byte records, one table per format. The peers are what a
// user would write or pick: for CSV and JSON Lines an iostream converter
// and a hand one (text2bin_csv.hpp, text2bin_jsonl.hpp), for JSON Lines
// also nlohmann/json and simdjson, for XML pugixml and expat
// (peers/record_text_peers.hpp); sluice's rows are
// sluice-text2bin's conversion on 1 thread and on every CPU. Every method
// writes the same packed records to target.path, which the runner checks;
// MB/s counts the text read (bench_case::measured), not the records
// written. The text is written to the work directory before the table's
// first run (bench_case::input).
#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "core/io.hpp"
#include "core/units.hpp"
#include "peers/record_text_peers.hpp"
#include "scenarios/record_text.hpp"
#include "scenarios/records.hpp"
#include "scenarios/scenarios.hpp"
#include "scenarios/text2bin_csv.hpp"
#include "scenarios/text2bin_jsonl.hpp"

#ifdef SLUICE_BENCH_HAVE_TEXT2BIN
#include "common/schema.hpp"
#include "common/text_format.hpp"
#include "text2bin/convert.hpp"
#endif

namespace sluice::bench {
namespace {

#ifdef SLUICE_BENCH_HAVE_TEXT2BIN
// Whether sluice-text2bin was built with the parser of `form`: the bench
// builds with each format's parser that is in the source tree.
constexpr bool text2bin_reads(text_form form) {
  switch (form) {
    case text_form::csv: return SLUICE_BENCH_TEXT2BIN_CSV;
    case text_form::jsonl: return SLUICE_BENCH_TEXT2BIN_JSONL;
    case text_form::xml: return SLUICE_BENCH_TEXT2BIN_XML;
  }
  return false;
}

sluice_tools::format tool_format(text_form form) {
  switch (form) {
    case text_form::csv: return sluice_tools::format::csv;
    case text_form::jsonl: return sluice_tools::format::jsonl;
    case text_form::xml: return sluice_tools::format::xml;
  }
  return sluice_tools::format::xml;
}

// sluice-text2bin's conversion on `threads` threads, into a plain writer
// (the tool itself writes a file with atomic replace, which always syncs).
void run_text2bin(const target& t, text_form form, unsigned threads) {
  text2bin::job work;
  work.input = t.input;
  work.layout = sluice_tools::parse_schema(record_schema);
  work.format = tool_format(form);
  work.threads = threads;
  sluice::writer out = open_writer(t);
  text2bin::convert(work, out);
  finish(out, t);
}
#endif

void add_sluice_rows(bench_case& c, [[maybe_unused]] text_form form) {
#ifdef SLUICE_BENCH_HAVE_TEXT2BIN
  if (!text2bin_reads(form)) {
    c.skipped.push_back("sluice-text2bin: skipped, built without its " +
                        std::string(form_name(form)) + " parser");
    return;
  }
  unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  c.methods.push_back({"sluice-text2bin, 1 thread", role::sluice,
                       [form](const target& t) { run_text2bin(t, form, 1); }});
  if (cpus > 1)
    c.methods.push_back({"sluice-text2bin, " + std::to_string(cpus) + " threads (one per CPU)",
                         role::sluice,
                         [form, cpus](const target& t) { run_text2bin(t, form, cpus); }});
#else
  c.skipped.emplace_back(
      "sluice-text2bin: skipped, not built (SLUICE_BUILD_TOOLS is off, or its driver is not in "
      "this source tree)");
#endif
}

bench_case make_case(text_form form, std::uint64_t requested) {
  record_text_size size = size_record_text(form, requested);
  std::uint64_t packed = size.records * record_size;
  bench_case c{"text2bin",
               "text2bin: " + format_size(size.bytes) + " of " + std::string(form_name(form)) +
                   " to " + std::to_string(size.records) + " binary records (" +
                   format_size(packed) + "); MB/s of the text read",
               packed,
               {},
               {}};
  c.measured = size.bytes;
  c.input = record_text_input(form, size.records);
  switch (form) {
    case text_form::csv:
      c.methods.push_back(
          {"std::getline + std::stod..., std::ofstream::write", role::peer, csv_with_iostream});
      c.methods.push_back(
          {"std::from_chars, read(2) 1 MiB + memchr, write(2)", role::peer, csv_by_hand});
      break;
    case text_form::jsonl:
      c.methods.push_back(
          {"std::getline + ignore(':') >>, std::ofstream::write", role::peer, jsonl_with_iostream});
      c.methods.push_back(
          {"std::from_chars after each ':', read(2) 1 MiB, write(2)", role::peer, jsonl_by_hand});
      add_jsonl_peers(c);
      break;
    case text_form::xml: add_xml_peers(c); break;
  }
  add_sluice_rows(c, form);
  return c;
}

}  // namespace

std::vector<bench_case> make_text2bin(std::uint64_t requested) {
  std::vector<bench_case> cases;
  for (text_form form : {text_form::csv, text_form::jsonl, text_form::xml})
    cases.push_back(make_case(form, requested));
  return cases;
}

}  // namespace sluice::bench
