// sluice-bench: what the "after close" column shows of a run's files,
// measured outside the timed part.
#pragma once

#include <initializer_list>
#include <string>

namespace sluice::bench {

// "3 + 5 extents" for the files at `paths` (file::extent_count, which first
// writes back their dirty pages), or why it cannot be told.
std::string extents_of(std::initializer_list<const char*> paths);

// "12 MiB cached": how much of the file at `path` is in the page cache
// (page_cache.hpp).
std::string cached_of(const char* path);

}  // namespace sluice::bench
