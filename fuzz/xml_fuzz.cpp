// libFuzzer target: arbitrary bytes as sluice-text2bin's XML input for the
// schema "id:i32,x:f64,n:u8", through the parser as the driver calls it:
// read_head on a growing prefix, whole_records on stretches of the rest,
// parse on each piece, the last with the document's end. A text_error at a
// byte of the text it was given is a fine answer; a crash, a hang, a read
// out of bounds, any other exception or a broken promise traps:
// - read_head takes no more than it was given, and answers when at the end;
// - whole_records cuts within its text, and takes all of it at the end;
// - parse appends whole records only, and leaves whole records on refusal;
// - the document cut into small stretches converts exactly as it does in
//   one piece: the same records, or a refusal in both.
//
// Input: byte 0 gives the stretch (1 to 64 bytes, or 256 for byte 0 >= 64);
// the rest is the document.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "common/schema.hpp"
#include "text2bin/record_encoder.hpp"
#include "text2bin/text_error.hpp"
#include "text2bin/xml_parser.hpp"

namespace {

void check(bool promise) {
  if (!promise) __builtin_trap();
}

const text2bin::record_encoder& encoder() {
  static const text2bin::record_encoder one(sluice_tools::parse_schema("id:i32,x:f64,n:u8"), false);
  return one;
}

// The records of `text` read in stretches of `stretch` bytes, or nothing if
// it is refused.
std::optional<std::vector<unsigned char>> convert(std::string_view text, std::size_t stretch) {
  text2bin::job work;
  auto parser = text2bin::make_xml_parser(work, encoder());
  std::vector<unsigned char> out;
  try {
    std::optional<std::size_t> head;
    for (std::size_t n = std::min(stretch, text.size()); !head; n = std::min(2 * n, text.size())) {
      head = parser->read_head(text.substr(0, n), n == text.size());
      check(head || n < text.size());
      check(!head || *head <= n);
    }
    text.remove_prefix(*head);
    for (bool at_end = false; !at_end;) {
      std::size_t length = std::min(stretch, text.size());
      std::size_t cut = 0;
      for (;;) {
        at_end = length == text.size();
        cut = parser->whole_records(text.substr(0, length), at_end);
        check(cut <= length && (!at_end || cut == length));
        if (cut > 0 || at_end) break;
        length = std::min(2 * length, text.size());
      }
      std::size_t before = out.size();
      try {
        parser->parse(text.substr(0, cut), at_end, out);
      } catch (const text2bin::text_error& e) {
        check(e.at() <= cut && out.size() >= before && out.size() % 13 == 0);
        throw;
      }
      check(out.size() % 13 == 0);
      text.remove_prefix(cut);
    }
  } catch (const text2bin::text_error& e) {
    check(e.what()[0] != 0);
    return std::nullopt;
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  std::size_t stretch = data[0] < 64 ? data[0] + 1u : 256u;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  auto whole = convert(text, text.size() + 1);
  auto cut = convert(text, stretch);
  check(whole.has_value() == cut.has_value());
  check(!whole || *whole == *cut);
  return 0;
}
