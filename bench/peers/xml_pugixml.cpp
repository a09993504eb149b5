// pugixml as an XML peer of the text2bin scenario (optional:
// SLUICE_BENCH_HAVE_PUGIXML).
#include <pugixml.hpp>
#include <stdexcept>
#include <string>

#include "peers/record_text_peers.hpp"
#include "scenarios/packed_records.hpp"
#include "scenarios/record_fields.hpp"

namespace sluice::bench {

void xml_with_pugixml(const target& t) {
  pugi::xml_document document;
  pugi::xml_parse_result loaded = document.load_file(t.input);
  if (!loaded)
    throw std::runtime_error(std::string("pugixml: ") + loaded.description() + " at offset " +
                             std::to_string(loaded.offset));
  packed_records out(t);
  record_fields fields;
  for (pugi::xml_node element : document.document_element().children("record")) {
    for (pugi::xml_attribute attribute : element.attributes())
      fields.set(attribute.name(), attribute.value());
    out.add(fields.take());
  }
  out.finish();
}

}  // namespace sluice::bench
