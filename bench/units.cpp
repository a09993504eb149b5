#include "units.hpp"

#include <array>
#include <cstdio>

namespace sluice::bench {

std::string format_size(std::uint64_t bytes) {
  constexpr std::array<const char*, 5> units = {"B", "KiB", "MiB", "GiB", "TiB"};
  std::size_t unit = 0;
  std::uint64_t scale = 1;
  while (unit + 1 < units.size() && bytes >= scale * 1024) {
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

}  // namespace sluice::bench
