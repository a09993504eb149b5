#include "scenarios/text2bin_jsonl.hpp"

#include <charconv>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "peers/ifstream.hpp"
#include "peers/ofstream.hpp"
#include "scenarios/line_chunks.hpp"
#include "scenarios/packed_records.hpp"
#include "scenarios/record_text.hpp"

namespace sluice::bench {
namespace {

[[noreturn]] void bad_line(std::uint64_t line) {
  throw std::runtime_error("JSON Lines line " + std::to_string(line) +
                           ": expected {\"id\":..,\"ts\":..,\"x\":..,\"y\":..,\"flags\":..}");
}

// The value after the next ':' of `values`, read with >>.
template <class T>
bool next_value(std::istringstream& values, T& value) {
  values.ignore(std::numeric_limits<std::streamsize>::max(), ':');
  return static_cast<bool>(values >> value);
}

// The value after the next ':' from `at` as a T by std::from_chars, then a
// ',' or the '}': where to go on from, or nullptr if it is not there.
template <class T>
const char* value_then(const char* at, const char* end, T& value) {
  const auto* colon = static_cast<const char*>(std::memchr(at, ':', end - at));
  if (!colon) return nullptr;
  auto [next, error] = std::from_chars(colon + 1, end, value);
  if (error != std::errc() || next == end || (*next != ',' && *next != '}')) return nullptr;
  return next + 1;
}

bool parse_line_by_hand(const char* at, const char* end, record& r) {
  at = value_then(at, end, r.id);
  if (at) at = value_then(at, end, r.ts);
  if (at) at = value_then(at, end, r.x);
  if (at) at = value_then(at, end, r.y);
  if (at) at = value_then(at, end, r.flags);
  return at == end;
}

}  // namespace

void jsonl_with_iostream(const target& t) {
  input_ifstream file(t.input, 0);
  std::ifstream& in = file.get();
  std::ofstream out(t.path, std::ios::binary);
  std::string line;
  for (std::uint64_t number = 1; std::getline(in, line); ++number) {
    std::istringstream values(line);
    record r;
    if (!(next_value(values, r.id) && next_value(values, r.ts) && next_value(values, r.x) &&
          next_value(values, r.y) && next_value(values, r.flags)))
      bad_line(number);
    unsigned char packed[record_size];
    store_record(packed, r);
    out.write(reinterpret_cast<const char*>(packed), record_size);
  }
  file.finish();
  finish(out, t);
}

void jsonl_by_hand(const target& t) {
  packed_records out(t);
  std::uint64_t number = 0;
  for_each_line(t.input, [&](std::string_view line) {
    record r;
    ++number;
    if (!parse_line_by_hand(line.data(), line.data() + line.size(), r)) bad_line(number);
    out.add(r);
  });
  out.finish();
}

}  // namespace sluice::bench
