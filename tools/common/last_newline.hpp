// The last line end of a block of text: glibc's memrchr (vectorised) where
// the C library has it, a backward search elsewhere (Windows, macOS).
// O(size), no allocation, never fails.
#pragma once

#include <cstddef>
#include <cstring>
#include <string_view>

namespace sluice_tools {

// The last '\n' in [data, data + size), or nullptr if there is none.
inline const char* last_newline(const char* data, std::size_t size) noexcept {
#ifdef __GLIBC__
  return static_cast<const char*>(::memrchr(data, '\n', size));
#else
  std::size_t at = std::string_view(data, size).rfind('\n');
  return at == std::string_view::npos ? nullptr : data + at;
#endif
}

}  // namespace sluice_tools
