// sluice::fields off its inline path (see <sluice/fields.hpp>): a field
// std::from_chars does not take whole, read by parse<T>'s own code, and the
// refusals located in the file the line came from.
#include "sluice/fields.hpp"

#include <cerrno>
#include <string>

#include "text/parse_messages.hpp"

namespace sluice::detail {
namespace {

parse_error located(const parse_error& error, const text_origin& origin, const char* at) {
  if (origin.line == 0) return error;
  return error.located(origin.path, origin.line,
                       origin.offset + static_cast<std::uint64_t>(at - origin.start));
}

}  // namespace

template <text_number T>
void parse_field(std::string_view field, T& value, int base, const text_origin& origin) {
  if (from_chars_whole(field, value, base)) return;
  try {
    parse_into(field, value, base);
  } catch (const parse_error& error) {
    throw located(error, origin, field.data());
  }
}

template <text_number T>
void refuse_missing(std::size_t count, const text_origin& origin, const char* line_end) {
  std::string reason =
      "missing: the line has " + std::to_string(count) + (count == 1 ? " field" : " fields");
  throw located(parse_error(EINVAL, type_name<T>(), {}, reason), origin, line_end);
}

#define SLUICE_FIELD_TYPE(T)                                                \
  template void parse_field(std::string_view, T&, int, const text_origin&); \
  template void refuse_missing<T>(std::size_t, const text_origin&, const char*);
SLUICE_FIELD_TYPE(signed char)
SLUICE_FIELD_TYPE(unsigned char)
SLUICE_FIELD_TYPE(short)
SLUICE_FIELD_TYPE(unsigned short)
SLUICE_FIELD_TYPE(int)
SLUICE_FIELD_TYPE(unsigned)
SLUICE_FIELD_TYPE(long)
SLUICE_FIELD_TYPE(unsigned long)
SLUICE_FIELD_TYPE(long long)
SLUICE_FIELD_TYPE(unsigned long long)
SLUICE_FIELD_TYPE(float)
SLUICE_FIELD_TYPE(double)
#undef SLUICE_FIELD_TYPE

}  // namespace sluice::detail
