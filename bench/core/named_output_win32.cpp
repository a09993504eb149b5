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

void check_chart_directory(const std::filesystem::path& dir) {
  std::error_code error;
  if (!std::filesystem::is_symlink(dir, error)) return;
  throw std::system_error(EACCES, std::generic_category(),
                          "'" + dir.string() +
                              "' is a symbolic link: not followed on Windows, where sluice-bench "
                              "cannot tell who made it; give the directory it leads to");
}

}  // namespace sluice::bench
