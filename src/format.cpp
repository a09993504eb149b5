// writer::print with a format (see <sluice/format.hpp>): std::to_chars into
// reserve()d space, then padding in place.
#include "sluice/format.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>

#include "sluice/writer.hpp"

namespace sluice {
namespace detail {

// Where the text goes inside the field: how many fill characters before it.
std::size_t lead_of(std::size_t gap, align where) noexcept {
  switch (where) {
    case align::left: return 0;
    case align::center: return gap / 2;
    case align::right: break;
  }
  return gap;
}

namespace {

template <class T>
std::size_t format_floating_as(char* text, T value, const float_format& format) noexcept {
  char* last = text + float_room(format, sizeof(T) == sizeof(double));
  std::to_chars_result result;
  switch (format.style) {
    case float_style::fixed:
      result = std::to_chars(text, last, value, std::chars_format::fixed, format.precision);
      break;
    case float_style::scientific:
      result = std::to_chars(text, last, value, std::chars_format::scientific, format.precision);
      break;
    case float_style::general:
      result = std::to_chars(text, last, value, std::chars_format::general, format.precision);
      break;
    case float_style::shortest:
    default: result = std::to_chars(text, last, value); break;
  }
  return apply_padding(text, static_cast<std::size_t>(result.ptr - text), format.padded);
}

}  // namespace

std::size_t apply_padding(char* text, std::size_t size, const padding& pad) noexcept {
  if (size >= pad.width) return size;
  std::size_t gap = pad.width - size;
  if (pad.fill == '0' && pad.align == align::right && size > 0 && text[0] == '-') {
    // Zeros after the sign, as printf's "%05d".
    std::memmove(text + 1 + gap, text + 1, size - 1);
    std::memset(text + 1, '0', gap);
    return pad.width;
  }
  std::size_t lead = lead_of(gap, pad.align);
  std::memmove(text + lead, text, size);
  std::memset(text, pad.fill, lead);
  std::memset(text + lead + size, pad.fill, gap - lead);
  return pad.width;
}

// Bounds: a sign, the integer digits (309 for a double, 39 for a float), the
// point, the precision's digits and an exponent ("e-308"), with a margin.
std::size_t float_room(const float_format& format, bool is_double) noexcept {
  auto precision = static_cast<std::size_t>(format.precision);
  switch (format.style) {
    case float_style::fixed: return (is_double ? 312 : 42) + precision;
    case float_style::scientific:
    case float_style::general: return 16 + precision;
    case float_style::shortest:
    default: return 32;
  }
}

std::size_t format_floating(char* text, double value, const float_format& format) noexcept {
  return format_floating_as(text, value, format);
}
std::size_t format_floating(char* text, float value, const float_format& format) noexcept {
  return format_floating_as(text, value, format);
}

}  // namespace detail

void writer::print(bool value) { write(value ? std::string_view("true") : "false"); }
void writer::print(char value) { put(value); }

void writer::print(double value, const float_format& format) {
  auto room = reserve(std::max(detail::float_room(format, true), format.padded.width));
  commit(detail::format_floating(room.data(), value, format));
}

void writer::print(float value, const float_format& format) {
  auto room = reserve(std::max(detail::float_room(format, false), format.padded.width));
  commit(detail::format_floating(room.data(), value, format));
}

void writer::print(std::string_view text, const padding& pad) {
  std::size_t gap = pad.width > text.size() ? pad.width - text.size() : 0;
  std::size_t lead = detail::lead_of(gap, pad.align);
  auto fill = [this, &pad](std::size_t n) {
    auto room = reserve(n);
    std::memset(room.data(), pad.fill, n);
    commit(n);
  };
  fill(lead);
  write(text);
  fill(gap - lead);
}

}  // namespace sluice
