#include "bin2text/record_text.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "common/byte_order.hpp"

namespace bin2text {
namespace {

using sluice_tools::field;
using sluice_tools::field_type;
using sluice_tools::format;
using sluice_tools::load_bits;

// Room for any value's text: the longest shortest-round-trip double
// ("-2.2250738585072014e-308") is 24 bytes, every integer fewer.
constexpr std::size_t value_room = 32;

char* copy(const std::string& text, char* out) {
  std::memcpy(out, text.data(), text.size());
  return out + text.size();
}

template <class T>
char* number(char* out, T value) {
  return std::to_chars(out, out + value_room, value).ptr;
}

// Shortest round-trip text; JSON has no NaN or infinity: null.
template <class T>
char* floating(char* out, T value, format form) {
  if (form == format::jsonl && !std::isfinite(value)) return std::memcpy(out, "null", 4), out + 4;
  return number(out, value);
}

char* value(char* out, const field& f, const unsigned char* at, bool big, format form) {
  switch (f.type) {
    case field_type::i8: return number(out, static_cast<std::int8_t>(*at));
    case field_type::u8: return number(out, static_cast<std::uint8_t>(*at));
    case field_type::i16:
      return number(out, static_cast<std::int16_t>(load_bits<std::uint16_t>(at, big)));
    case field_type::u16: return number(out, load_bits<std::uint16_t>(at, big));
    case field_type::i32:
      return number(out, static_cast<std::int32_t>(load_bits<std::uint32_t>(at, big)));
    case field_type::u32: return number(out, load_bits<std::uint32_t>(at, big));
    case field_type::i64:
      return number(out, static_cast<std::int64_t>(load_bits<std::uint64_t>(at, big)));
    case field_type::u64: return number(out, load_bits<std::uint64_t>(at, big));
    case field_type::f32:
      return floating(out, std::bit_cast<float>(load_bits<std::uint32_t>(at, big)), form);
    case field_type::f64:
      return floating(out, std::bit_cast<double>(load_bits<std::uint64_t>(at, big)), form);
  }
  return out;
}

// The text before field `i` (named `name`) in `form`.
std::string text_before(format form, std::size_t i, const std::string& name) {
  switch (form) {
    case format::xml: return (i == 0 ? "<record " : "\" ") + name + "=\"";
    case format::csv: return i == 0 ? "" : ",";
    case format::jsonl: return (i == 0 ? "{\"" : ",\"") + name + "\":";
  }
  return {};
}

std::string text_after(format form) {
  switch (form) {
    case format::xml: return "\"/>\n";
    case format::csv: return "\n";
    case format::jsonl: return "}\n";
  }
  return {};
}

}  // namespace

record_text::record_text(const sluice_tools::schema& layout, format form, bool big_endian)
    : after_(text_after(form)), form_(form), big_endian_(big_endian), max_size_(after_.size()) {
  if (layout.fields.empty()) throw std::invalid_argument("a record needs at least one field");
  for (std::size_t i = 0; i < layout.fields.size(); ++i) {
    steps_.push_back({text_before(form, i, layout.fields[i].name), layout.fields[i]});
    max_size_ += steps_.back().before.size() + value_room;
  }
}

char* record_text::write(char* out, const unsigned char* record) const noexcept {
  for (const step& s : steps_) {
    out = copy(s.before, out);
    out = value(out, s.value, record + s.value.offset, big_endian_, form_);
  }
  return copy(after_, out);
}

}  // namespace bin2text
