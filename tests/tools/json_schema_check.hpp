// Checks a JSON value against a JSON Schema, for the tests of the reports
// sluice-bench writes. Only the keywords docs/sluice-bench.schema.json
// uses: "type" (a name or a list of names), "enum", "required",
// "properties", "additionalProperties": false, and "items"; any other is
// ignored. Written here so that the check needs nothing but nlohmann-json,
// which the bench needs anyway.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sluice_test {

// What `value` breaks of `schema`, one line per problem:
// "$.cases[0].methods[2]: has no 'role'" or "$.mb: expected integer, found
// string"; empty when it conforms. `where` names `value` in the lines.
std::vector<std::string> schema_problems(const nlohmann::json& schema, const nlohmann::json& value,
                                         const std::string& where = "$");

}  // namespace sluice_test
