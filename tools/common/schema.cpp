#include "common/schema.hpp"

#include <array>
#include <stdexcept>
#include <utility>

namespace sluice_tools {
namespace {

struct type_entry {
  std::string_view name;
  field_type type;
  std::size_t size;
};

constexpr std::array<type_entry, 10> types = {{{"i8", field_type::i8, 1},
                                              {"u8", field_type::u8, 1},
                                              {"i16", field_type::i16, 2},
                                              {"u16", field_type::u16, 2},
                                              {"i32", field_type::i32, 4},
                                              {"u32", field_type::u32, 4},
                                              {"i64", field_type::i64, 8},
                                              {"u64", field_type::u64, 8},
                                              {"f32", field_type::f32, 4},
                                              {"f64", field_type::f64, 8}}};

bool is_name(std::string_view name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  for (char c : name)
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
      return false;
  return true;
}

[[noreturn]] void bad(const std::string& why) { throw std::invalid_argument("bad schema: " + why); }

const type_entry& find_type(std::string_view name, std::string_view item) {
  for (const auto& t : types)
    if (t.name == name) return t;
  bad("unknown type '" + std::string(name) + "' in '" + std::string(item) +
      "' (types: i8 u8 i16 u16 i32 u32 i64 u64 f32 f64)");
}

void add_field(schema& layout, std::string_view item) {
  auto colon = item.find(':');
  if (colon == std::string_view::npos) bad("'" + std::string(item) + "' is not name:type");
  std::string_view name = item.substr(0, colon);
  if (!is_name(name)) bad("'" + std::string(name) + "' is not a name ([A-Za-z_][A-Za-z0-9_]*)");
  for (const auto& f : layout.fields)
    if (f.name == name) bad("field '" + std::string(name) + "' appears twice");
  const type_entry& type = find_type(item.substr(colon + 1), item);
  layout.fields.push_back({std::string(name), type.type, layout.record_size, type.size});
  layout.record_size += type.size;
}

}  // namespace

std::string_view type_name(field_type type) noexcept {
  for (const auto& t : types)
    if (t.type == type) return t.name;
  return "?";
}

schema parse_schema(std::string_view text) {
  if (text.empty()) bad("empty (expected e.g. id:i32,x:f64)");
  schema layout;
  while (true) {
    auto comma = text.find(',');
    add_field(layout, text.substr(0, comma));
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return layout;
}

}  // namespace sluice_tools
