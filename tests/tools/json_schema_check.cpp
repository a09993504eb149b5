#include "json_schema_check.hpp"

#include <algorithm>

namespace sluice_test {
namespace {

using json = nlohmann::json;

// The schema's type name for `value`; "integer" for a whole number.
bool has_type(const json& value, const std::string& type) {
  if (type == "integer") return value.is_number_integer();
  if (type == "number") return value.is_number();
  if (type == "string") return value.is_string();
  if (type == "boolean") return value.is_boolean();
  if (type == "null") return value.is_null();
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  return false;
}

// The "type" keyword: problems appended to `out`; false if it failed
// (then the others are not checked).
bool check_type(const json& schema, const json& value, const std::string& where,
                std::vector<std::string>& out) {
  if (!schema.contains("type")) return true;
  json types = schema["type"].is_array() ? schema["type"] : json::array({schema["type"]});
  for (const json& type : types)
    if (has_type(value, type.get<std::string>())) return true;
  out.push_back(where + ": expected " + schema["type"].dump() + ", found " + value.type_name() +
                " " + value.dump());
  return false;
}

void check_object(const json& schema, const json& value, const std::string& where,
                  std::vector<std::string>& out) {
  for (const json& name : schema.value("required", json::array()))
    if (!value.contains(name.get<std::string>()))
      out.push_back(where + ": has no '" + name.get<std::string>() + "'");
  json properties = schema.value("properties", json::object());
  for (const auto& [name, field] : value.items()) {
    if (properties.contains(name)) {
      for (std::string& p : schema_problems(properties[name], field, where + "." + name))
        out.push_back(std::move(p));
    } else if (schema.value("additionalProperties", true) == false) {
      out.push_back(where + ": has '" + name + "', which the schema does not list");
    }
  }
}

}  // namespace

std::vector<std::string> schema_problems(const json& schema, const json& value,
                                         const std::string& where) {
  std::vector<std::string> out;
  if (!check_type(schema, value, where, out)) return out;
  if (schema.contains("enum") &&
      std::find(schema["enum"].begin(), schema["enum"].end(), value) == schema["enum"].end())
    out.push_back(where + ": expected one of " + schema["enum"].dump() + ", found " + value.dump());
  if (value.is_object()) check_object(schema, value, where, out);
  if (value.is_array() && schema.contains("items"))
    for (std::size_t i = 0; i < value.size(); ++i)
      for (std::string& p :
           schema_problems(schema["items"], value[i], where + "[" + std::to_string(i) + "]"))
        out.push_back(std::move(p));
  return out;
}

}  // namespace sluice_test
