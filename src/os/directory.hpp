// Opening a directory, for the calls that work on one (sync_directory, list_directory),
// and the absolute paths of the files a writer creates in one.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "sluice/file.hpp"

namespace sluice::detail {

// Opens `path` read-only with O_DIRECTORY. Throws std::system_error
// ("open directory '<path>'"): ENOENT, ENOTDIR, EACCES...
file open_directory(const std::filesystem::path& path);

// Opens for reading the directory `held` is open on (O_PATH will do: an
// openat of "." through it), in which `path` will be created or renamed
// and which close() must then sync, before anything is created there: one
// that cannot be read (EACCES where it may be written but not read, mode
// 0300) throws std::system_error("sluice: open '<path>': cannot open its
// directory '<held.path()>' to sync it at close; nothing was created:
// <strerror>").
file open_directory_to_sync(const std::filesystem::path& path, const file& held);

// fsync of an open directory, then close. Throws std::system_error naming
// it ("fsync directory '<path>'", "close '<path>'").
void sync_open_directory(file& directory);

// `path` made absolute against the current directory, without a
// std::filesystem exception: an empty path throws ENOENT, a current
// directory that cannot be found (removed) its errno, as "sluice: open
// '<path>': ...". No system call but getcwd, for a relative path.
std::filesystem::path absolute_path(const std::filesystem::path& path);

}  // namespace sluice::detail
