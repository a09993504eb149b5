// What the number fuzz targets count as the same value: the same bits, or
// for a NaN a NaN of the same sign (payloads are not kept).
#pragma once

#include <cmath>
#include <cstring>
#include <type_traits>

namespace sluice_fuzz {

template <class T>
bool same_bits(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return std::isnan(b) && std::signbit(a) == std::signbit(b);
    return std::memcmp(&a, &b, sizeof a) == 0;
  } else {
    return a == b;
  }
}

}  // namespace sluice_fuzz
