// named_output.hpp on Windows: there are no FIFOs or devices to write in
// place, no sticky directories and no link owners to weigh, so a named
// output is always an atomic replace, and a --svg DIR that is a symbolic
// link is refused rather than followed.
#include <cerrno>
#include <string>
#include <system_error>

#include "core/named_output.hpp"

namespace sluice::bench {

sluice::writer open_named_output(const std::string& path) {
  return sluice::writer(std::filesystem::path(path), {.atomic_replace = true});
}

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

void check_chart_directory(const std::filesystem::path& dir) {
  std::error_code error;
  if (!std::filesystem::is_symlink(dir, error)) return;
  throw std::system_error(EACCES, std::generic_category(),
                          "'" + dir.string() +
                              "' is a symbolic link: not followed on Windows, where sluice-bench "
                              "cannot tell who made it; give the directory it leads to");
}

}  // namespace sluice::bench
