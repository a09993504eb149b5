// sluice::reader's fields and numbers off the inline path: where a field
// the caller split was read, for its parse_error (read_fields and parse<T>
// are inline in reader.hpp; the splitting and parsing are sluice::fields
// and parse<T>, src/text/).
#include <functional>

#include "sluice/reader.hpp"

namespace sluice {

detail::text_origin reader::origin_of(std::string_view field) const noexcept {
  const auto* first = reinterpret_cast<const char*>(begin_);
  const auto* last = reinterpret_cast<const char*>(end_);
  std::less<const char*> before;  // a total order, also for a text elsewhere in memory
  if (begin_ == nullptr || before(field.data(), first) || before(last, field.data() + field.size()))
    return {};
  return {path(), lines_, offset_of(field.data()), field.data()};
}

}  // namespace sluice
