// sluice-text2bin's CSV parser (tools/text2bin/csv_parser.*) on any bytes,
// as the conversion drives it: the head read from growing prefixes, then
// pieces cut where whole_records says (from stretches of a size the input
// picks), each parsed. No crash, no hang, no read past a piece (each is
// copied to a buffer of its exact size), no error outside its text, and
// records whole.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "common/schema.hpp"
#include "text2bin/convert.hpp"
#include "text2bin/csv_parser.hpp"
#include "text2bin/record_encoder.hpp"
#include "text2bin/text_error.hpp"

namespace {

void check(bool condition) {
  if (!condition) std::abort();
}

// `text` in a heap buffer of its exact size, so that ASan sees any read past it.
std::unique_ptr<char[]> exact_copy(std::string_view text) {
  auto copy = std::make_unique<char[]>(text.size());
  if (!text.empty()) std::memcpy(copy.get(), text.data(), text.size());
  return copy;
}

const text2bin::record_encoder& encoder() {
  static const text2bin::record_encoder shared(
      sluice_tools::parse_schema("a:i8,b:u16,c:i32,d:u64,x:f32,y:f64"), false);
  return shared;
}

// The head, read as the driver does: from prefixes growing by `step`.
// Returns its length, or nothing after an error.
bool read_head(text2bin::format_parser& parser, std::string_view text, std::size_t step,
               std::size_t& head) {
  for (std::size_t size = step;; size += step) {
    bool at_end = size >= text.size();
    std::string_view prefix = text.substr(0, size);
    auto copy = exact_copy(prefix);
    try {
      auto taken = parser.read_head(std::string_view(copy.get(), prefix.size()), at_end);
      if (taken) {
        check(*taken <= prefix.size());
        head = *taken;
        return true;
      }
      check(!at_end);
    } catch (const text2bin::text_error& e) {
      check(e.at() <= prefix.size());
      return false;
    }
  }
}

// The records after the head, in pieces cut from stretches of `step` bytes
// (growing while no record ends in one).
void parse_pieces(const text2bin::format_parser& parser, std::string_view text, std::size_t step) {
  std::vector<unsigned char> out;
  while (!text.empty()) {
    std::size_t cut = 0;
    for (std::size_t size = step; cut == 0; size *= 2) {
      bool at_end = size >= text.size();
      std::string_view stretch = text.substr(0, size);
      auto copy = exact_copy(stretch);
      cut = parser.whole_records(std::string_view(copy.get(), stretch.size()), at_end);
      check(cut <= stretch.size());
      check(!at_end || cut == stretch.size());
      check(cut == 0 || at_end || stretch[cut - 1] == '\n');
    }
    auto piece = exact_copy(text.substr(0, cut));
    std::size_t before = out.size();
    try {
      parser.parse(std::string_view(piece.get(), cut), cut == text.size(), out);
    } catch (const text2bin::text_error& e) {
      check(e.at() <= cut);
      check((out.size() - before) % encoder().record_size() == 0);
      return;
    }
    check((out.size() - before) % encoder().record_size() == 0);
    text.remove_prefix(cut);
  }
}

}  // namespace

// The first byte picks the header mode, trimming and the sizes of the
// prefixes and stretches; the rest is the CSV.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  unsigned options = data[0];
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  text2bin::job work;
  work.format = sluice_tools::format::csv;
  work.header = static_cast<text2bin::csv_header>(options % 3);
  work.trim_spaces = (options & 4) != 0;
  auto parser = text2bin::make_csv_parser(work, encoder());
  std::size_t step = 1 + (options >> 3);
  std::size_t head = 0;
  if (read_head(*parser, text, step, head)) parse_pieces(*parser, text.substr(head), step);
  return 0;
}
