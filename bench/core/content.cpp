#include "core/content.hpp"

#include <array>

namespace sluice::bench {
namespace {

constexpr std::size_t line_length = 64;

char pattern_at(std::size_t i) {
  std::size_t line = i / line_length, column = i % line_length;
  if (column == line_length - 1) return '\n';
  return static_cast<char>('!' + (line + column) % 94);  // '!'..'~'
}

}  // namespace

const char* pattern() {
  static const auto period = [] {
    std::array<char, pattern_period> bytes;
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = pattern_at(i);
    return bytes;
  }();
  return period.data();
}

std::vector<char> pattern_bytes(std::size_t size) {
  std::vector<char> bytes(size);
  const char* period = pattern();
  for (std::size_t i = 0; i < size; ++i) bytes[i] = period[i % pattern_period];
  return bytes;
}

}  // namespace sluice::bench
