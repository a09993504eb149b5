// named_output.hpp's same_file, the same on every platform: std::filesystem
// compares the device and inode (POSIX) or the volume and file index
// (Windows) of two files that exist, and the absolute paths of two that
// may not.
#include <string>
#include <system_error>

#include "core/named_output.hpp"

namespace sluice::bench {

bool same_file(const std::string& a, const std::string& b) noexcept {
  std::error_code error;
  if (std::filesystem::exists(a, error) && std::filesystem::exists(b, error))
    return std::filesystem::equivalent(a, b, error) && !error;
  std::error_code ea, eb;
  std::filesystem::path ca =
      std::filesystem::weakly_canonical(std::filesystem::absolute(a, ea), ea);
  std::filesystem::path cb =
      std::filesystem::weakly_canonical(std::filesystem::absolute(b, eb), eb);
  return !ea && !eb && ca == cb;
}

}  // namespace sluice::bench
