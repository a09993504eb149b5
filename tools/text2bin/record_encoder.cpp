#include "text2bin/record_encoder.hpp"

#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sluice/parse.hpp>
#include <utility>

#include "common/byte_order.hpp"
#include "text2bin/text_error.hpp"

namespace text2bin {
namespace {

using sluice_tools::field_type;

// The unsigned integer as wide as T, which carries T's bits to the record.
template <class T>
using bits_of = std::conditional_t<
    sizeof(T) == 1, std::uint8_t,
    std::conditional_t<sizeof(T) == 2, std::uint16_t,
                       std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;

template <class T>
void store(T value, bool big_endian, unsigned char* at) {
  auto bits = sluice_tools::in_record_order(std::bit_cast<bits_of<T>>(value), big_endian);
  std::memcpy(at, &bits, sizeof bits);
}

template <class T>
void encode_as(std::string_view text, bool big_endian, unsigned char* at,
               const record_encoder& encoder, std::size_t field, std::size_t text_at) {
  T value;
  try {
    value = sluice::parse<T>(text);
  } catch (const sluice::parse_error& e) {
    if (e.code().value() == ERANGE)
      throw text_error(text_at, encoder.describe(field) + " out of range: " + e.quoted_text());
    constexpr const char* kind = std::is_integral_v<T> ? "a decimal integer" : "a number";
    throw text_error(text_at, std::string("expected ") + kind + " for " + encoder.describe(field) +
                                  ", found " + (text.empty() ? "nothing" : e.quoted_text()));
  }
  store(value, big_endian, at);
}

template <class T, bool big_endian>
const char* encode_prefix_as(const char* first, const char* last, unsigned char* at) noexcept {
  T value;
  auto result = std::from_chars(first, last, value);
  if (result.ec != std::errc{}) return nullptr;
  store(value, big_endian, at);
  return result.ptr;
}

template <class T>
field_prefix_encoder::read_function prefix_reader(bool big_endian) noexcept {
  return big_endian ? encode_prefix_as<T, true> : encode_prefix_as<T, false>;
}

}  // namespace

record_encoder::record_encoder(sluice_tools::schema layout, bool big_endian)
    : layout_(std::move(layout)), big_endian_(big_endian) {}

std::size_t record_encoder::find(std::string_view name) const noexcept {
  for (std::size_t i = 0; i < layout_.fields.size(); ++i)
    if (layout_.fields[i].name == name) return i;
  return npos;
}

std::string record_encoder::describe(std::size_t field) const {
  const auto& f = layout_.fields[field];
  return "field '" + f.name + "' (" + std::string(sluice_tools::type_name(f.type)) + ")";
}

void record_encoder::encode(std::size_t field, std::string_view text, std::size_t at,
                            unsigned char* record) const {
  const auto& f = layout_.fields[field];
  unsigned char* to = record + f.offset;
  switch (f.type) {
    case field_type::i8: return encode_as<std::int8_t>(text, big_endian_, to, *this, field, at);
    case field_type::u8: return encode_as<std::uint8_t>(text, big_endian_, to, *this, field, at);
    case field_type::i16: return encode_as<std::int16_t>(text, big_endian_, to, *this, field, at);
    case field_type::u16: return encode_as<std::uint16_t>(text, big_endian_, to, *this, field, at);
    case field_type::i32: return encode_as<std::int32_t>(text, big_endian_, to, *this, field, at);
    case field_type::u32: return encode_as<std::uint32_t>(text, big_endian_, to, *this, field, at);
    case field_type::i64: return encode_as<std::int64_t>(text, big_endian_, to, *this, field, at);
    case field_type::u64: return encode_as<std::uint64_t>(text, big_endian_, to, *this, field, at);
    case field_type::f32: return encode_as<float>(text, big_endian_, to, *this, field, at);
    case field_type::f64: return encode_as<double>(text, big_endian_, to, *this, field, at);
  }
}

field_prefix_encoder record_encoder::prefix_encoder(std::size_t field) const noexcept {
  const auto& f = layout_.fields[field];
  auto read = [&]() -> field_prefix_encoder::read_function {
    switch (f.type) {
      case field_type::i8: return prefix_reader<std::int8_t>(big_endian_);
      case field_type::u8: return prefix_reader<std::uint8_t>(big_endian_);
      case field_type::i16: return prefix_reader<std::int16_t>(big_endian_);
      case field_type::u16: return prefix_reader<std::uint16_t>(big_endian_);
      case field_type::i32: return prefix_reader<std::int32_t>(big_endian_);
      case field_type::u32: return prefix_reader<std::uint32_t>(big_endian_);
      case field_type::i64: return prefix_reader<std::int64_t>(big_endian_);
      case field_type::u64: return prefix_reader<std::uint64_t>(big_endian_);
      case field_type::f32: return prefix_reader<float>(big_endian_);
      case field_type::f64: return prefix_reader<double>(big_endian_);
    }
    return nullptr;
  };
  return {read(), f.offset};
}

void record_encoder::encode_nan(std::size_t field, std::size_t at, unsigned char* record) const {
  const auto& f = layout_.fields[field];
  if (f.type == field_type::f32)
    return store(std::numeric_limits<float>::quiet_NaN(), big_endian_, record + f.offset);
  if (f.type == field_type::f64)
    return store(std::numeric_limits<double>::quiet_NaN(), big_endian_, record + f.offset);
  throw text_error(at, "expected a decimal integer for " + describe(field) + ", found null");
}

}  // namespace text2bin
