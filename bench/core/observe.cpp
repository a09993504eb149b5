#include "core/observe.hpp"

#include <sluice/file.hpp>
#include <system_error>

#include "core/page_cache.hpp"

namespace sluice::bench {

std::string extents_of(std::initializer_list<const char*> paths) {
  std::string text;
  try {
    for (const char* path : paths) {
      if (!text.empty()) text += " + ";
      text += std::to_string(
          sluice::file::open(path, {.mode = sluice::open_mode::read_only}).extent_count());
    }
  } catch (const std::system_error& e) {
    return "extents unknown: " + e.code().message();
  }
  return text + " extents";
}

std::string cached_of(const char* path) {
  if (page_cache_missing) return "cached unknown";
  return std::to_string(cached_bytes(path) >> 20) + " MiB cached";
}

}  // namespace sluice::bench
