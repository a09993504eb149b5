#include "support/filesystem.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "sluice/file.hpp"
#include "sluice/writer.hpp"

namespace sluice_test {

using sluice::detail::filesystem;

filesystem filesystem_of(const std::filesystem::path& path) {
  const sluice::detail::sys_table& real = sluice::detail::real_sys();
  int fd = real.open(sluice::detail::working_directory, path.c_str(),
                     {.mode = sluice::detail::open_request::access::path_only});
  filesystem which = filesystem::other;
  if (fd < 0 || real.filesystem_of(fd, &which) != 0)
    ADD_FAILURE() << "which filesystem " << path << " is on: " << std::strerror(errno);
  if (fd >= 0) real.close(fd);
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
  return dir.native() + " is on tmpfs, whose cached pages are the file itself: none can be dropped";
}

std::string needs_preallocation(const std::filesystem::path& dir) {
  const sluice::detail::sys_table& real = sluice::detail::real_sys();
  auto probe = dir / "preallocation-probe";
  int fd = real.open(sluice::detail::working_directory, probe.c_str(),
                     {.mode = sluice::detail::open_request::access::write,
                      .create = true,
                      .exclusive = true,
                      .permissions = 0600});
  if (fd < 0) return "cannot create " + probe.native() + ": " + std::strerror(errno);
  int reserved = real.preallocate(fd, 0, 4096, sluice::detail::space_mode::grow);
  int error = errno;
  real.close(fd);
  ::unlink(probe.c_str());
  if (reserved == 0) return "";
  return "the backend cannot preallocate in " + dir.native() + ": " + std::strerror(error);
}

std::string needs_unnamed_temporaries(const std::filesystem::path& dir) {
  const sluice::detail::sys_table& real = sluice::detail::real_sys();
  int fd = real.open(sluice::detail::working_directory, dir.c_str(),
                     {.mode = sluice::detail::open_request::access::read_write,
                      .unnamed_temporary = true,
                      .permissions = 0600});
  if (fd < 0)
    return "the backend makes no unnamed temporary (O_TMPFILE) in " + dir.native() + ": " +
           std::strerror(errno);
  real.close(fd);
  return "";
}

std::string needs_procfs() {
  const sluice::detail::sys_table& real = sluice::detail::real_sys();
  int fd = real.open(sluice::detail::working_directory, "/proc", {.directory = true});
  if (fd < 0) return std::string("cannot open /proc: ") + std::strerror(errno);
  int procfs = real.on_procfs(fd);
  real.close(fd);
  if (procfs == 1) return "";
  return "the backend does not take /proc for procfs (on_procfs), as on systems without one";
}

}  // namespace sluice_test
