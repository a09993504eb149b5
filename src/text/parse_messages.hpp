// The parts of parse_error's messages shared by the code that refuses a
// text: the type's name ("int32", "uint8", "float", "double": sign and
// width, whatever the C++ type is called) and the text quoted.
#pragma once

#include <string>
#include <string_view>
#include <type_traits>

namespace sluice::detail {

template <class T>
std::string type_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  if constexpr (std::is_same_v<T, double>) return "double";
  return (std::is_signed_v<T> ? "int" : "uint") + std::to_string(sizeof(T) * 8);
}

// `text` between double quotes, escaped so that a message stays one line of
// printable ASCII whatever the bytes ('"', '\\' and bytes outside printable
// ASCII as C writes them: \", \\, \x0a), and cut to its first 48 bytes and
// its length said if longer than 64 (src/text/parse.cpp).
std::string quote(std::string_view text);

}  // namespace sluice::detail
