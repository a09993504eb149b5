#include "text2bin/parsers.hpp"

#include <stdexcept>
#include <string>

#include "text2bin/csv_parser.hpp"

namespace text2bin {
namespace {

[[noreturn]] void not_built(const char* format) {
  throw std::invalid_argument(std::string("reading ") + format + " is not built yet");
}

}  // namespace

std::unique_ptr<format_parser> make_parser(const job& work, const record_encoder& encoder) {
  switch (work.format) {
    case sluice_tools::format::csv: return make_csv_parser(work, encoder);
    case sluice_tools::format::jsonl: not_built("JSON Lines");
    case sluice_tools::format::xml: not_built("XML");
  }
  not_built("this format");
}

}  // namespace text2bin
