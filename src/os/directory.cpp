// Opening a directory and syncing it; the absolute paths of the files a
// writer creates in one.
#include "os/directory.hpp"

#include <cerrno>
#include <string>
#include <system_error>
#include <utility>

#include "os/error_messages.hpp"
#include "os/path_text.hpp"
#include "os/sys.hpp"
#include "os/transfer.hpp"

namespace sluice {

file detail::open_directory(const std::filesystem::path& path) {
  detail::handle fd = restart_interrupted(
      [&] { return sys().open(working_directory, path_text(path).c_str(), {.directory = true}); });
  if (fd == detail::no_handle()) throw_error(errno, "open directory", path_text(path));
  return file(fd, path_text(path));
}

file detail::open_directory_to_sync(const std::filesystem::path& path, const file& held) {
  std::string shown = held.path();  // before the open: nothing may throw between it and the file
  detail::handle fd = restart_interrupted(
      [&] { return sys().open(held.native_handle(), ".", {.directory = true}); });
  if (fd == detail::no_handle()) {
    int error = errno;
    throw std::system_error(error, std::generic_category(),
                            describe("open", path_text(path)) + ": cannot open its directory '" +
                                held.path() + "' to sync it at close; nothing was created");
  }
  return file(fd, std::move(shown));
}

void detail::sync_open_directory(file& directory) {
  if (sys().sync_directory(directory.native_handle()) != 0)
    throw_error(errno, "fsync directory", directory.path());
  directory.close();
}

std::filesystem::path detail::absolute_path(const std::filesystem::path& path) {
  if (path.empty()) throw_error(ENOENT, "open", "");
  std::error_code error;
  std::filesystem::path made = std::filesystem::absolute(path, error);
  if (error) throw_error(error.value(), "open", path_text(path));
  return made;
}

void sync_directory(const std::filesystem::path& path) {
  file directory = detail::open_directory(path);  // closes on every path out
  detail::sync_open_directory(directory);
}

}  // namespace sluice
