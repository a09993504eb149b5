#include "common/text_format.hpp"

#include <stdexcept>
#include <string>

namespace sluice_tools {

format parse_format(std::string_view name) {
  if (name == "xml") return format::xml;
  if (name == "csv") return format::csv;
  if (name == "jsonl") return format::jsonl;
  throw std::invalid_argument("unknown format '" + std::string(name) + "' (xml, csv or jsonl)");
}

}  // namespace sluice_tools
