// nlohmann/json as a JSON Lines peer of the text2bin scenario.
#include <cstring>
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
  line_chunks in(t.input);
  packed_records out(t);
  for (std::string_view lines; !(lines = in.next()).empty();) {
    const char* at = lines.data();
    const char* end = at + lines.size();
    while (at < end) {
      auto* found =
          static_cast<const char*>(std::memchr(at, '\n', static_cast<std::size_t>(end - at)));
      const char* line_end = found ? found : end;
      out.add(record_of(nlohmann::json::parse(at, line_end)));
      at = line_end + 1;
    }
  }
  out.finish();
}

}  // namespace sluice::bench
