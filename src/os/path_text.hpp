// A std::filesystem::path as the text sluice passes to the seam and shows in
// messages: its native string on POSIX (no copy), UTF-8 on Windows, whose
// native paths are UTF-16 (the Win32 backend turns them back into UTF-16
// for CreateFileW). Never fails but for memory (std::bad_alloc).
#pragma once

#include <filesystem>
#include <string>

namespace sluice::detail {

#ifdef _WIN32
inline std::string path_text(const std::filesystem::path& path) {
  std::u8string utf8 = path.u8string();
  return std::string(utf8.begin(), utf8.end());
}
#else
inline const std::string& path_text(const std::filesystem::path& path) { return path.native(); }
#endif

}  // namespace sluice::detail
