// The sluice tools: the text formats records are written in or read from.
#pragma once

#include <string_view>

namespace sluice_tools {

// XML (<record a="1" b="2.5"/>), CSV (a header row, then a line per record)
// or JSON Lines ({"a":1,"b":2.5} per line); docs/sluice-bin2text.md shows
// each.
enum class format { xml, csv, jsonl };

// The format named "xml", "csv" or "jsonl" (as --format spells it); throws
// std::invalid_argument naming the three for any other name.
format parse_format(std::string_view name);

}  // namespace sluice_tools
