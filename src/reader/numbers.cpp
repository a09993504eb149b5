// sluice::reader::read_number off its inline path: a field that reaches the
// end of what is buffered, ends a CRLF line, is refused, or whose terminator
// may be part of a number. The field is buffered whole, then read by
// parse<T>'s code (sluice::detail::parse_field, src/text/fields.cpp).
#include <cerrno>
#include <string>

#include "sluice/reader.hpp"
#include "text/parse_messages.hpp"

namespace sluice {
namespace {

// The first `terminator` or '\n' in [first, last), or null.
const char* field_end(const char* first, const char* last, char terminator) noexcept {
  for (; first != last; ++first)
    if (*first == terminator || *first == '\n') return first;
  return nullptr;
}

}  // namespace

template <detail::text_number T>
void reader::read_number_slow(T& value, char terminator, int base) {
  const char* end;  // the field's terminator or line end; null at the end of the file
  for (;;) {
    end = field_end(reinterpret_cast<const char*>(pos_), reinterpret_cast<const char*>(end_),
                    terminator);
    if (end != nullptr) break;
    auto buffered = static_cast<std::size_t>(end_ - pos_);
    if (buffered >= line_room()) throw_line_too_long("read_number");
    if (fill(buffered + 1) == buffered) break;  // the end of the file
  }
  const auto* first = reinterpret_cast<const char*>(pos_);
  bool ends_line = end == nullptr || *end == '\n';
  std::string_view field(first, end != nullptr ? end : reinterpret_cast<const char*>(end_));
  if (end != nullptr && *end == '\n' && options_.line_ending == line_end::crlf &&
      field.ends_with('\r'))
    field.remove_suffix(1);
  if (field.size() > options_.max_line) throw_line_too_long("read_number");
  detail::text_origin origin{path(), lines_ + 1, tell(), first};
  detail::parse_field(field, value, base, origin);
  if (ends_line && terminator != '\n') {
    parse_error early(EINVAL, detail::type_name<T>(), field,
                      "the line ends before " + detail::quote({&terminator, 1}));
    throw early.located(path(), lines_ + 1, tell());
  }
  pos_ =
      end != nullptr ? const_cast<std::byte*>(reinterpret_cast<const std::byte*>(end)) + 1 : end_;
  if (ends_line) ++lines_;
}

#define SLUICE_READ_NUMBER(T) template void reader::read_number_slow(T&, char, int);
SLUICE_READ_NUMBER(signed char)
SLUICE_READ_NUMBER(unsigned char)
SLUICE_READ_NUMBER(short)
SLUICE_READ_NUMBER(unsigned short)
SLUICE_READ_NUMBER(int)
SLUICE_READ_NUMBER(unsigned)
SLUICE_READ_NUMBER(long)
SLUICE_READ_NUMBER(unsigned long)
SLUICE_READ_NUMBER(long long)
SLUICE_READ_NUMBER(unsigned long long)
SLUICE_READ_NUMBER(float)
SLUICE_READ_NUMBER(double)
#undef SLUICE_READ_NUMBER

}  // namespace sluice
