// sluice-bench "text2bin": the parsing libraries a user would pick to turn
// the JSON Lines and XML of record_text.hpp back into packed records, each
// written by packed_records (a write(2) per 256 KiB) so that the rows
// differ in their parsing only. nlohmann/json is always there (the bench
// needs it); simdjson, pugixml and expat are optional
// (SLUICE_BENCH_HAVE_SIMDJSON, _PUGIXML, _EXPAT): add_jsonl_peers() and
// add_xml_peers() note in the table's place those not found at build time.
// Each converter reads target.input, writes target.path and throws
// std::runtime_error for text that is not the records, std::system_error
// for I/O.
#pragma once

#include "core/bench_case.hpp"

namespace sluice::bench {

// Appends the JSON Lines peers built in to c.methods, a note per missing
// one to c.skipped.
void add_jsonl_peers(bench_case& c);
// The same for the XML peers.
void add_xml_peers(bench_case& c);

// nlohmann::json::parse of each line (found by memchr in read(2)s of
// 1 MiB), its fields by name with at() and get<T>().
void jsonl_with_nlohmann(const target& t);
// simdjson's On-Demand API: the whole file loaded (padded_string::load),
// its documents walked with iterate_many, each field by name.
void jsonl_with_simdjson(const target& t);
// pugixml: the whole file loaded (load_file), each <record> element of the
// document element walked, its attributes read with std::from_chars.
void xml_with_pugixml(const target& t);
// expat: the file fed in read(2)s of 256 KiB, each <record>'s attributes
// read in the start-element callback with std::from_chars.
void xml_with_expat(const target& t);

}  // namespace sluice::bench
