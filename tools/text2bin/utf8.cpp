#include "text2bin/utf8.hpp"

namespace text2bin {

std::size_t utf8_length(const unsigned char* s, std::size_t left) noexcept {
  unsigned char lead = s[0], low = 0x80, high = 0xbf;
  std::size_t length;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) low = 0xa0;   // overlong below it
    if (lead == 0xed) high = 0x9f;  // surrogates above it
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) low = 0x90;   // overlong below it
    if (lead == 0xf4) high = 0x8f;  // past U+10FFFF above it
  } else {
    return 0;
  }
  if (left < length || s[1] < low || s[1] > high) return 0;
  for (std::size_t i = 2; i < length; ++i)
    if ((s[i] & 0xc0) != 0x80) return 0;
  return length;
}

void append_utf8(std::string& out, std::uint32_t code) {
  auto byte = [&out](std::uint32_t bits) { out += static_cast<char>(bits); };
  if (code < 0x80) return byte(code);
  if (code < 0x800) {
    byte(0xc0 | code >> 6);
  } else if (code < 0x10000) {
    byte(0xe0 | code >> 12);
    byte(0x80 | (code >> 6 & 0x3f));
  } else {
    byte(0xf0 | code >> 18);
    byte(0x80 | (code >> 12 & 0x3f));
    byte(0x80 | (code >> 6 & 0x3f));
  }
  byte(0x80 | (code & 0x3f));
}

}  // namespace text2bin
