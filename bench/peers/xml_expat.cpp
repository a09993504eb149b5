// expat as an XML peer of the text2bin scenario (optional:
// SLUICE_BENCH_HAVE_EXPAT).
#include <expat.h>

#include <cstring>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>

#include "core/io.hpp"
#include "peers/record_text_peers.hpp"
#include "scenarios/packed_records.hpp"
#include "scenarios/record_fields.hpp"

namespace sluice::bench {
namespace {

// What the callbacks share: a C callback cannot throw through expat, so a
// failure is kept here and the parser stopped.
struct expat_state {
  XML_Parser parser;
  packed_records& out;
  record_fields fields;
  std::exception_ptr failure;
};

void XMLCALL start_element(void* data, const XML_Char* name, const XML_Char** attributes) {
  auto& state = *static_cast<expat_state*>(data);
  if (std::strcmp(name, "record") != 0) return;
  try {
    for (; *attributes; attributes += 2) state.fields.set(attributes[0], attributes[1]);
    state.out.add(state.fields.take());
  } catch (...) {
    state.failure = std::current_exception();
    XML_StopParser(state.parser, XML_FALSE);
  }
}

[[noreturn]] void parse_failed(const expat_state& state) {
  if (state.failure) std::rethrow_exception(state.failure);
  throw std::runtime_error(std::string("expat: ") +
                           XML_ErrorString(XML_GetErrorCode(state.parser)) + " at line " +
                           std::to_string(XML_GetCurrentLineNumber(state.parser)));
}

}  // namespace

void xml_with_expat(const target& t) {
  std::unique_ptr<XML_ParserStruct, void (*)(XML_Parser)> parser(XML_ParserCreate(nullptr),
                                                                 XML_ParserFree);
  if (!parser) throw std::bad_alloc();
  raw_input in(t.input);
  packed_records out(t);
  expat_state state{parser.get(), out, {}, {}};
  XML_SetUserData(parser.get(), &state);
  XML_SetStartElementHandler(parser.get(), start_element);
  for (;;) {
    void* buffer = XML_GetBuffer(parser.get(), static_cast<int>(big_buffer_size));
    if (!buffer) throw std::bad_alloc();
    std::size_t got = in.read_some(static_cast<char*>(buffer), big_buffer_size);
    if (XML_ParseBuffer(parser.get(), static_cast<int>(got), got == 0) != XML_STATUS_OK)
      parse_failed(state);
    if (got == 0) break;
  }
  out.finish();
}

}  // namespace sluice::bench
