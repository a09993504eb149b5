// The name parse_error gives a number type: "int32", "uint8", "float",
// "double" (sign and width, whatever the C++ type is called).
#pragma once

#include <string>
#include <type_traits>

namespace sluice::detail {

template <class T>
std::string type_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  if constexpr (std::is_same_v<T, double>) return "double";
  return (std::is_signed_v<T> ? "int" : "uint") + std::to_string(sizeof(T) * 8);
}

}  // namespace sluice::detail
