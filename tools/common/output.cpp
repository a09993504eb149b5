#include "common/output.hpp"

#include <algorithm>
#include <iterator>
#include <sluice/file.hpp>
#include <sluice/writer.hpp>

#include "common/standard_streams.hpp"

namespace sluice_tools {
namespace {

// Names for standard output in -o: written as it goes, never replaced.
constexpr std::string_view stdout_names[] = {"", "-", "/dev/stdout", "/dev/fd/1",
                                             "/proc/self/fd/1"};

}  // namespace

bool names_standard_output(std::string_view path) noexcept {
  return std::find(std::begin(stdout_names), std::end(stdout_names), path) !=
         std::end(stdout_names);
}

void write_output(const std::string& path, const std::function<void(sluice::writer&)>& write) {
  if (!names_standard_output(path)) {
    sluice::writer out(path, {.atomic_replace = true});
    write(out);
    return out.close();  // the rename
  }
  // A pipe, a terminal or a file alike; close() leaves descriptor 1 open.
  sluice::writer out(borrow_standard_output());
  write(out);
  out.close();
}

}  // namespace sluice_tools
