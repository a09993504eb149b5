// sluice-text2bin: UTF-8, as the JSON and XML parsers check and write it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace text2bin {

// The length of the valid UTF-8 sequence at `s` (s[0] >= 0x80, `left`
// bytes from `s` on), or 0 if it is not one: an overlong form, a
// surrogate, a code point past U+10FFFF, a sequence cut short.
std::size_t utf8_length(const unsigned char* s, std::size_t left) noexcept;

// Appends code point `code` (at most U+10FFFF, no surrogate) in UTF-8.
void append_utf8(std::string& out, std::uint32_t code);

}  // namespace text2bin
