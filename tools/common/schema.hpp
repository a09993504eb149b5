// The sluice tools: the record layout given by --schema, e.g.
// "id:i32,ts:i64,x:f32,y:f64,flags:u16": fields in order, packed, no padding.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace sluice_tools {

enum class field_type { i8, u8, i16, u16, i32, u32, i64, u64, f32, f64 };

struct field {
  std::string name;  // [A-Za-z_][A-Za-z0-9_]*: safe as an XML attribute, CSV or JSON key
  field_type type;
  std::size_t offset;  // from the start of the record
  std::size_t size;    // bytes
};

struct schema {
  std::vector<field> fields;
  std::size_t record_size = 0;
};

// The type as --schema spells it: "i32", "f64".
std::string_view type_name(field_type type) noexcept;

// Parses "name:type,..."; throws std::invalid_argument naming what is wrong
// (an empty schema, a field without ':', a bad or repeated name, an unknown
// type).
schema parse_schema(std::string_view text);

}  // namespace sluice_tools
