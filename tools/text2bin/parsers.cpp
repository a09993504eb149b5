#include "text2bin/parsers.hpp"

#include "text2bin/csv_parser.hpp"
#include "text2bin/jsonl_parser.hpp"
#include "text2bin/xml_parser.hpp"

namespace text2bin {

std::unique_ptr<format_parser> make_parser(const job& work, const record_encoder& encoder) {
  switch (work.format) {
    case sluice_tools::format::csv: return make_csv_parser(work, encoder);
    case sluice_tools::format::jsonl: return make_jsonl_parser(work, encoder);
    case sluice_tools::format::xml: break;
  }
  return make_xml_parser(work, encoder);
}

}  // namespace text2bin
