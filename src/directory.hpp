// Opening a directory, for the calls that work on one (fsync, getdents64).
#pragma once

#include <filesystem>

#include "sluice/file.hpp"

namespace sluice::detail {

// Opens `path` read-only with O_DIRECTORY. Throws std::system_error
// ("open directory '<path>'"): ENOENT, ENOTDIR, EACCES...
file open_directory(const std::filesystem::path& path);

}  // namespace sluice::detail
