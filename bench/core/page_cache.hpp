// sluice-bench: a file's pages in the page cache, counted and dropped,
// outside the timed part of a run. page_cache.cpp on Linux (mincore,
// posix_fadvise); page_cache_win32.cpp on Windows, which can do neither.
#pragma once

#include <cstdint>

namespace sluice::bench {

// nullptr where a file's cached pages can be counted and dropped; else why
// not (Windows), for the cold reading cases and the "cached" column.
extern const char* const page_cache_missing;

// Bytes of the file at `path` resident in the page cache (mmap + mincore,
// a byte per page). Throws std::system_error.
std::uint64_t cached_bytes(const char* path);

// Drops the file at `path` from the page cache: fdatasync, so that no page
// is left dirty, then posix_fadvise(POSIX_FADV_DONTNEED) over the whole
// file. Filesystems whose cache is the file (tmpfs) keep it: cached_bytes
// tells. Throws std::system_error.
void drop_from_page_cache(const char* path);

// Reads the file at `path` through once (pread of 1 MiB), so that its pages
// are in the page cache again. Throws std::system_error.
void load_into_page_cache(const char* path);

}  // namespace sluice::bench
