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

std::string needs_preallocation(const std::filesystem::path& dir, sluice::detail::space_mode how) {
  const sluice::detail::sys_table& real = sluice::detail::real_sys();
  auto probe = dir / "preallocation-probe";
  auto fd = real.open(sluice::detail::working_directory, sluice::detail::path_text(probe).c_str(),
                      {.mode = sluice::detail::open_request::access::write,
                       .create = true,
                       .exclusive = true,
                       .permissions = 0600});
  if (fd == sluice::detail::no_handle())
    return "cannot create " + probe.string() + ": " + std::strerror(errno);
  int reserved = real.preallocate(fd, 0, 4096, how);
  int error = errno;
  real.close(fd);
  std::filesystem::remove(probe);
  if (reserved == 0) return "";
  const char* mode = how == sluice::detail::space_mode::keep_size ? " past a file's end" : "";
  return "the backend cannot preallocate" + std::string(mode) + " in " + dir.string() + ": " +
         std::strerror(error);
}

std::string needs_symlinks(const std::filesystem::path& dir) {
  auto probe = dir / "symlink-probe";
  std::error_code error;
  std::filesystem::create_symlink("symlink-target", probe, error);
  if (error) return "cannot make a symbolic link in " + dir.string() + ": " + error.message();
  std::filesystem::remove(probe);
  return "";
}

std::string needs_unnamed_temporaries(const std::filesystem::path& dir) {
  const sluice::detail::sys_table& real = sluice::detail::real_sys();
  auto fd = real.open(sluice::detail::working_directory, sluice::detail::path_text(dir).c_str(),
                      {.mode = sluice::detail::open_request::access::read_write,
                       .unnamed_temporary = true,
                       .permissions = 0600});
  if (fd == sluice::detail::no_handle())
    return "the backend makes no unnamed temporary (O_TMPFILE) in " + dir.string() + ": " +
           std::strerror(errno);
  real.close(fd);
  return "";
}

std::string needs_procfs() {
  const sluice::detail::sys_table& real = sluice::detail::real_sys();
  auto fd = real.open(sluice::detail::working_directory, "/proc", {.directory = true});
  if (fd == sluice::detail::no_handle())
    return std::string("cannot open /proc: ") + std::strerror(errno);
  int procfs = real.on_procfs(fd);
  real.close(fd);
  if (procfs == 1) return "";
  return "the backend does not take /proc for procfs (on_procfs), as on systems without one";
}

}  // namespace sluice_test
