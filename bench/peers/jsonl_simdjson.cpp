// simdjson as a JSON Lines peer of the text2bin scenario (optional:
// SLUICE_BENCH_HAVE_SIMDJSON). Built with exceptions, as Debian's is: a
// parse error throws simdjson::simdjson_error. Built without -march, as a
// distribution builds, its On-Demand code is simdjson's portable kernel.
#include <simdjson.h>

#include <stdexcept>

#include "peers/record_text_peers.hpp"
#include "scenarios/packed_records.hpp"

namespace sluice::bench {

void jsonl_with_simdjson(const target& t) {
  simdjson::padded_string text = simdjson::padded_string::load(t.input);
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document_stream documents = parser.iterate_many(text);
  packed_records out(t);
  for (auto line : documents) {
    std::int64_t id = line["id"].get_int64(), ts = line["ts"].get_int64();
    double x = line["x"].get_double(), y = line["y"].get_double();
    std::uint64_t flags = line["flags"].get_uint64();
    out.add({static_cast<std::int32_t>(id), ts, static_cast<float>(x), y,
             static_cast<std::uint16_t>(flags)});
  }
  if (documents.truncated_bytes() != 0)
    throw std::runtime_error("simdjson: the input ends inside a JSON document");
  out.finish();
}

}  // namespace sluice::bench
