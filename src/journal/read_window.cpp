#include "journal/read_window.hpp"

#include <cerrno>

#include "journal/format.hpp"
#include "os/sys.hpp"

namespace sluice::detail {
namespace {

constexpr std::size_t window_size = std::size_t{1} << 20;

}  // namespace

std::vector<std::pair<std::uint64_t, std::uint64_t>> read_window::data_ranges(
    std::uint64_t offset) const {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  detail::handle fd = source_.native_handle();
  while (offset < limit_) {
    std::int64_t data = sys().seek_region(fd, static_cast<std::int64_t>(offset), region::data);
    if (data < 0 && errno == ENXIO) break;  // nothing but holes to the end
    if (data < 0 || static_cast<std::uint64_t>(data) < offset)
      data = static_cast<std::int64_t>(offset);
    if (static_cast<std::uint64_t>(data) >= limit_) break;
    std::int64_t hole = sys().seek_region(fd, data, region::hole);
    std::uint64_t end = hole > data ? std::min(static_cast<std::uint64_t>(hole), limit_) : limit_;
    ranges.emplace_back(static_cast<std::uint64_t>(data), end);
    offset = end;
  }
  return ranges;
}

void read_window::drop_cached_after(std::uint64_t offset) const noexcept {
  std::uint64_t from = page_end(offset);
  if (from < limit_)
    (void)sys().drop_cache(source_.native_handle(), static_cast<std::int64_t>(from),
                           static_cast<std::int64_t>(limit_ - from));
}

std::span<const std::byte> read_window::bytes(std::uint64_t offset, std::size_t n) {
  if (offset >= limit_) return {};
  n = static_cast<std::size_t>(std::min<std::uint64_t>(n, limit_ - offset));
  if (offset < start_ || offset + n > start_ + buffer_.size()) {
    std::size_t want = static_cast<std::size_t>(
        std::min<std::uint64_t>(std::max(n, window_size), limit_ - offset));
    buffer_.resize(want);
    buffer_.resize(source_.read_at(buffer_, offset));
    start_ = offset;
    n = std::min(n, buffer_.size());
  }
  return {buffer_.data() + (offset - start_), n};
}

}  // namespace sluice::detail
