// sluice-bench: a record of records.hpp put together from named fields
// given as text ("id" = "7"), as the text2bin scenario's XML peers find
// them in attributes; each number read with std::from_chars.
#pragma once

#include <charconv>
#include <stdexcept>
#include <string>
#include <string_view>

#include "scenarios/records.hpp"

namespace sluice::bench {

// The number that is all of `text`, by std::from_chars. Throws
// std::runtime_error naming `field` if `text` is not one of type T.
template <class T>
T parse_field(std::string_view text, std::string_view field) {
  T value{};
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    throw std::runtime_error("expected a number for field '" + std::string(field) + "', found \"" +
                             std::string(text) + "\"");
  return value;
}

class record_fields {
 public:
  // Sets the field called `name` from `text`. Throws std::runtime_error
  // for a name that is not id, ts, x, y or flags, or text that is not a
  // number of the field's type.
  void set(std::string_view name, std::string_view text);

  // The record of the fields set since the last take(). Throws
  // std::runtime_error if one of them was not set.
  record take();

 private:
  record record_{};
  unsigned set_ = 0;  // a bit per field, in the record's order
};

}  // namespace sluice::bench
