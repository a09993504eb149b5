// sluice::reader and the page cache: the hint at open (normal), dropping
// what was read (no_cache). caching_mode::direct's alignment is the
// buffer's (refill.cpp).
#include "os/page_size.hpp"
#include "os/sys.hpp"
#include "sluice/reader.hpp"

namespace sluice {
namespace {

// The kernel caches a file in folios of up to 2 MiB (ext4, XFS and others
// since Linux 6.x), naturally aligned, and POSIX_FADV_DONTNEED drops only
// the folios wholly inside its range: each drop starts again this far back,
// so that a folio the last one cut through goes once it is wholly behind.
constexpr std::uint64_t largest_folio = 2 * 1024 * 1024;

std::uint64_t folio_start(std::uint64_t offset) noexcept {
  return offset / largest_folio * largest_folio;
}

}  // namespace

// normal: POSIX_FADV_SEQUENTIAL, a hint whose refusal changes nothing.
void reader::apply_caching_at_open() {
  if (options_.caching == caching_mode::normal && seekable_)
    (void)detail::sys().advise_sequential(source_.native_handle());
}

// no_cache: drops the whole pages before the position, from the folio
// holding the last drop's end.
void reader::drop_behind() noexcept {
  if (!seekable_) return;
  std::uint64_t page = detail::page_size();
  std::uint64_t to = tell() / page * page;
  if (to <= dropped_to_) return;
  std::uint64_t from = folio_start(dropped_to_);
  (void)detail::sys().drop_cache(source_.native_handle(), static_cast<std::int64_t>(from),
                                 static_cast<std::int64_t>(to - from));
  dropped_to_ = to;
}

// no_cache, at close: drops everything from there to the end of the file,
// the kernel's read-ahead past the position included.
void reader::drop_rest() noexcept {
  if (options_.caching != caching_mode::no_cache || !seekable_) return;
  (void)detail::sys().drop_cache(source_.native_handle(),
                                 static_cast<std::int64_t>(folio_start(dropped_to_)), 0);
}

}  // namespace sluice
