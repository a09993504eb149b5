// The page cache on Windows: a file's cached pages can be neither counted
// (no mincore) nor dropped (no posix_fadvise); each call throws ENOTSUP
// saying so, and the callers ask page_cache_missing first.
#include <cerrno>
#include <system_error>

#include "core/page_cache.hpp"

namespace sluice::bench {

const char* const page_cache_missing =
    "Windows can neither count a file's cached pages (no mincore) nor drop them (no "
    "posix_fadvise DONTNEED)";

namespace {
[[noreturn]] void missing() {
  throw std::system_error(ENOTSUP, std::generic_category(), page_cache_missing);
}
}  // namespace

std::uint64_t cached_bytes(const char*) { missing(); }
void drop_from_page_cache(const char*) { missing(); }
// Only ever called after a drop.
void load_into_page_cache(const char*) { missing(); }

}  // namespace sluice::bench
