// The C API's number parsing: sluice::parse<T> over the whole text.
#include <string_view>

#include "c/errors.hpp"
#include "sluice/c.h"
#include "sluice/parse.hpp"

namespace c_api = sluice::detail::c_api;

namespace {

template <class T>
int parse_whole(const char* text, size_t size, T* value, std::string_view function) noexcept {
  if (value == nullptr || (text == nullptr && size != 0))
    return c_api::invalid_argument(function, "text or value is NULL");
  return c_api::guarded([&] { *value = sluice::parse<T>(std::string_view(text, size)); });
}

}  // namespace

extern "C" {

int sluice_parse_i64(const char* text, size_t size, int64_t* value) {
  return parse_whole(text, size, value, "sluice_parse_i64");
}

int sluice_parse_u64(const char* text, size_t size, uint64_t* value) {
  return parse_whole(text, size, value, "sluice_parse_u64");
}

int sluice_parse_double(const char* text, size_t size, double* value) {
  return parse_whole(text, size, value, "sluice_parse_double");
}

}  // extern "C"
