// Opening a path as file::open does, with the hints only the library's own
// callers give (the reader's sequential read).
#pragma once

#include <filesystem>

#include "sluice/file.hpp"

namespace sluice::detail {

// file::open(path, options), with `sequential` passed to the seam's open
// (open_request::sequential: FILE_FLAG_SEQUENTIAL_SCAN on Windows, nothing
// elsewhere, where the caller advises after the open). Throws as
// file::open.
file open_path(const std::filesystem::path& path, file_options options, bool sequential);

}  // namespace sluice::detail
