#include "core/units.hpp"

#include <array>
#include <cctype>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace sluice::bench {
namespace {

constexpr std::uint64_t largest = std::numeric_limits<std::uint64_t>::max();

// The factor of `unit` (already lower case), 0 if it is none.
std::uint64_t factor_of(std::string_view unit) {
  if (unit.empty() || unit == "b") return 1;
  constexpr std::string_view prefixes = "kmgtpe";
  std::size_t at = prefixes.find(unit[0]);
  std::string_view rest = unit.substr(1);
  if (at == std::string_view::npos || !(rest.empty() || rest == "b" || rest == "ib")) return 0;
  return std::uint64_t{1} << (10 * (at + 1));
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::string format_size(std::uint64_t bytes) {
  constexpr std::array<const char*, 7> units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  std::size_t unit = 0;
  std::uint64_t scale = 1;
  while (unit + 1 < units.size() && bytes / 1024 >= scale) {
    scale *= 1024;
    ++unit;
  }
  char text[32];
  if (bytes % scale == 0)
    std::snprintf(text, sizeof text, "%llu %s", static_cast<unsigned long long>(bytes / scale),
                  units[unit]);
  else
    std::snprintf(text, sizeof text, "%.1f %s", static_cast<double>(bytes) / scale, units[unit]);
  return text;
}

std::uint64_t parse_size(std::string_view text) {
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  std::uint64_t factor = factor_of(lower(text.substr(digits)));
  if (digits == 0 || factor == 0)
    throw std::invalid_argument("'" + std::string(text) +
                                "' is not a size: a whole number of bytes, optionally followed by "
                                "K, M, G, T, P or E (powers of 1024)");
  std::uint64_t value = 0;
  bool overflow = false;
  for (char c : text.substr(0, digits))
    overflow |= __builtin_mul_overflow(value, 10, &value) |
                __builtin_add_overflow(value, static_cast<std::uint64_t>(c - '0'), &value);
  overflow |= __builtin_mul_overflow(value, factor, &value);
  if (overflow)
    throw std::invalid_argument("'" + std::string(text) + "' is more than 2^64 - 1 bytes");
  return value;
}

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) noexcept {
  std::uint64_t product;
  return __builtin_mul_overflow(a, b, &product) ? largest : product;
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) noexcept {
  std::uint64_t sum;
  return __builtin_add_overflow(a, b, &sum) ? largest : sum;
}

}  // namespace sluice::bench
