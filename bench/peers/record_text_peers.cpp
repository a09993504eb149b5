#include "peers/record_text_peers.hpp"

namespace sluice::bench {

void add_jsonl_peers(bench_case& c) {
  c.methods.push_back({"nlohmann::json::parse per line", role::peer, jsonl_with_nlohmann});
#ifdef SLUICE_BENCH_HAVE_SIMDJSON
  c.methods.push_back(
      {"simdjson On-Demand, whole file, iterate_many", role::peer, jsonl_with_simdjson});
#else
  c.skipped.emplace_back("simdjson: skipped, not found at build time (libsimdjson-dev)");
#endif
}

void add_xml_peers(bench_case& c) {
#ifdef SLUICE_BENCH_HAVE_PUGIXML
  c.methods.push_back({"pugixml, whole file, attributes walked", role::peer, xml_with_pugixml});
#else
  c.skipped.emplace_back("pugixml: skipped, not found at build time (libpugixml-dev)");
#endif
#ifdef SLUICE_BENCH_HAVE_EXPAT
  c.methods.push_back({"expat, SAX callbacks, read(2) 256 KiB", role::peer, xml_with_expat});
#else
  c.skipped.emplace_back("expat: skipped, not found at build time (libexpat1-dev)");
#endif
}

}  // namespace sluice::bench
