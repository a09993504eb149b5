// UTF-8 well-formedness, as in Unicode's table 3-7.
#include "text/utf8.hpp"

namespace sluice::detail {
namespace {

struct lead_rule {
  std::size_t length;  // 0: not a lead byte
  unsigned char second_low, second_high;
};

lead_rule rule_for(unsigned char lead) noexcept {
  if (lead >= 0xC2 && lead <= 0xDF) return {2, 0x80, 0xBF};
  if (lead == 0xE0) return {3, 0xA0, 0xBF};
  if (lead == 0xED) return {3, 0x80, 0x9F};  // no surrogates
  if (lead >= 0xE1 && lead <= 0xEF) return {3, 0x80, 0xBF};
  if (lead == 0xF0) return {4, 0x90, 0xBF};
  if (lead == 0xF4) return {4, 0x80, 0x8F};  // nothing above U+10FFFF
  if (lead >= 0xF1 && lead <= 0xF3) return {4, 0x80, 0xBF};
  return {0, 0, 0};
}

}  // namespace

utf8_sequence next_utf8(const unsigned char* text, std::size_t size) noexcept {
  lead_rule rule = rule_for(text[0]);
  if (rule.length == 0) return {1, false};
  if (size < 2 || text[1] < rule.second_low || text[1] > rule.second_high) return {1, false};
  for (std::size_t i = 2; i < rule.length; ++i)
    if (i >= size || text[i] < 0x80 || text[i] > 0xBF) return {i, false};
  return {rule.length, true};
}

}  // namespace sluice::detail
