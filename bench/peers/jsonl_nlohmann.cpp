// nlohmann/json as a JSON Lines peer of the text2bin scenario.
#include <nlohmann/json.hpp>
#include <string_view>

#include "peers/record_text_peers.hpp"
#include "scenarios/line_chunks.hpp"
#include "scenarios/packed_records.hpp"

namespace sluice::bench {
namespace {

record record_of(const nlohmann::json& line) {
  return {line.at("id").get<std::int32_t>(), line.at("ts").get<std::int64_t>(),
          line.at("x").get<float>(), line.at("y").get<double>(),
          line.at("flags").get<std::uint16_t>()};
}

}  // namespace

void jsonl_with_nlohmann(const target& t) {
  packed_records out(t);
  for_each_line(t.input, [&out](std::string_view line) {
    out.add(record_of(nlohmann::json::parse(line.begin(), line.end())));
  });
  out.finish();
}

}  // namespace sluice::bench
