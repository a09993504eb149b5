#include "scenarios/record_fields.hpp"

namespace sluice::bench {

void record_fields::set(std::string_view name, std::string_view text) {
  if (name == "id") {
    record_.id = parse_field<std::int32_t>(text, name);
    set_ |= 1;
  } else if (name == "ts") {
    record_.ts = parse_field<std::int64_t>(text, name);
    set_ |= 2;
  } else if (name == "x") {
    record_.x = parse_field<float>(text, name);
    set_ |= 4;
  } else if (name == "y") {
    record_.y = parse_field<double>(text, name);
    set_ |= 8;
  } else if (name == "flags") {
    record_.flags = parse_field<std::uint16_t>(text, name);
    set_ |= 16;
  } else {
    throw std::runtime_error("expected a field id, ts, x, y or flags, found '" + std::string(name) +
                             "'");
  }
}

record record_fields::take() {
  if (set_ != 31) throw std::runtime_error("a record lacks one of its fields id, ts, x, y, flags");
  set_ = 0;
  return record_;
}

}  // namespace sluice::bench
