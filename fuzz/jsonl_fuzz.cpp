// libFuzzer target: arbitrary bytes as sluice-text2bin's JSON Lines input
// for the schema id:i32,ts:i64,x:f32,y:f64,flags:u16, cut into pieces by
// whole_records as the conversion cuts them and parsed piece by piece. A
// text_error (at a byte inside its piece, its message one line without
// control characters) is a fine answer; a crash, a hang, a read out of
// bounds, any other exception or a broken promise traps. Promises: a piece
// ends after a '\n' unless it is the last; parse appends whole records and
// keeps those before a bad one; parsing the pieces gives the same records,
// or the same refusal at the same byte of the input, as parsing the whole
// input at once.
//
// Input: byte 0 picks the first stretch offered to whole_records (1 to 64
// bytes, doubled while no record ends in it); the rest is the text.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/schema.hpp"
#include "text2bin/jsonl_parser.hpp"
#include "text2bin/text_error.hpp"

namespace {

void check(bool promise) {
  if (!promise) __builtin_trap();
}

const text2bin::record_encoder& encoder() {
  static const text2bin::record_encoder made(
      sluice_tools::parse_schema("id:i32,ts:i64,x:f32,y:f64,flags:u16"), false);
  return made;
}

// What parsing gave: the records, and the refusal if there was one (its
// byte in the whole input).
struct outcome {
  std::vector<unsigned char> records;
  bool refused = false;
  std::size_t at = 0;
  std::string message;
};

// Parses `piece` (starting at byte `start` of the input) into `result`;
// false if it was refused.
bool parse_piece(const text2bin::format_parser& parser, std::string_view piece, bool last,
                 std::size_t start, outcome& result) {
  std::size_t before = result.records.size();
  try {
    parser.parse(piece, last, result.records);
  } catch (const text2bin::text_error& e) {
    check(e.at() <= piece.size());
    std::string_view what = e.what();
    check(!what.empty());
    for (unsigned char c : what) check(c >= 0x20 && c != 0x7f);
    result.refused = true;
    result.at = start + e.at();
    result.message = what;
  }
  check(result.records.size() >= before);
  check(result.records.size() % encoder().record_size() == 0);
  return !result.refused;
}

outcome parse_in_pieces(const text2bin::format_parser& parser, std::string_view text,
                        std::size_t stretch) {
  outcome result;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t offered = std::min(stretch, text.size() - at);
    bool at_end = at + offered == text.size();
    std::size_t length = parser.whole_records(text.substr(at, offered), at_end);
    check(length <= offered);
    if (at_end) check(length == offered);
    if (length == 0) {
      stretch *= 2;
      continue;
    }
    if (!at_end) check(text[at + length - 1] == '\n');
    if (!parse_piece(parser, text.substr(at, length), at_end, at, result)) break;
    at += length;
  }
  return result;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  auto parser = text2bin::make_jsonl_parser(text2bin::job{}, encoder());
  check(parser->read_head(text, true) == 0);
  outcome whole;
  parse_piece(*parser, text, true, 0, whole);
  outcome pieces = parse_in_pieces(*parser, text, 1 + data[0] % 64);
  check(pieces.records == whole.records);
  check(pieces.refused == whole.refused);
  check(pieces.at == whole.at);
  check(pieces.message == whole.message);
  return 0;
}
