#include "support/filesystem.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "os/path_text.hpp"
#include "sluice/file.hpp"
#include "sluice/writer.hpp"

namespace sluice_test {

using sluice::detail::filesystem;

filesystem filesystem_of(const std::filesystem::path& path) {
  const sluice::detail::sys_table& real = sluice::detail::real_sys();
  auto fd = real.open(sluice::detail::working_directory, sluice::detail::path_text(path).c_str(),
                      {.mode = sluice::detail::open_request::access::path_only});
  filesystem which = filesystem::other;
  bool opened = fd != sluice::detail::no_handle();
  if (!opened || real.filesystem_of(fd, &which) != 0)
    ADD_FAILURE() << "which filesystem " << path << " is on: " << std::strerror(errno);
  if (opened) real.close(fd);
  return which;
}

bool on_tmpfs(const std::filesystem::path& path) {
  return filesystem_of(path) == filesystem::tmpfs;
}

std::size_t direct_block(const std::filesystem::path& path) {
  try {
    sluice::writer probe(path, {.caching = sluice::caching::direct});
    return sluice::file::open(path, {.mode = sluice::open_mode::read_only}).direct_io_alignment();
  } catch (const std::system_error&) {
    return 0;
  }
}

std::string needs_droppable_cache(const std::filesystem::path& dir) {
  if (!on_tmpfs(dir)) return "";
  return dir.string() + " is on tmpfs, whose cached pages are the file itself: none can be dropped";
}

}  // namespace sluice_test
