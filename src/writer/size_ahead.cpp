#include "writer/size_ahead.hpp"

#include <algorithm>
#include <cstdint>

#include "os/sys.hpp"
#include "os/transfer.hpp"

namespace sluice::detail {

size_ahead::size_ahead(detail::handle fd, std::uint64_t size, std::uint64_t step) noexcept
    : fd_(fd), size_(size), step_(step) {}

void size_ahead::cover(std::uint64_t end) noexcept {
  if (end <= size_ || step_ == 0) return;
  std::uint64_t limit = 0;  // unknown: growing could kill the process
  if (sys().file_size_limit(&limit) != 0) limit = 0;
  std::uint64_t to = std::min(end + step_, limit);
  if (to < end || to > static_cast<std::uint64_t>(INT64_MAX) ||
      restart_interrupted([&] {
        return sys().preallocate(fd_, static_cast<std::int64_t>(size_),
                                 static_cast<std::int64_t>(to - size_), space_mode::grow);
      }) != 0) {
    step_ = 0;
    grown_ = std::max(grown_, to);  // a refusal may have grown it part of the way
    return;
  }
  size_ = grown_ = to;
}

int size_ahead::give_back(std::uint64_t end) noexcept {
  if (grown_ <= end) return 0;
  if (restart_interrupted([&] { return sys().resize(fd_, static_cast<std::int64_t>(end)); }) != 0) {
    step_ = 0;
    return errno;
  }
  size_ = end;
  grown_ = 0;
  if (reserved_end_ > end)
    (void)restart_interrupted([&] {
      return sys().preallocate(fd_, static_cast<std::int64_t>(end),
                               static_cast<std::int64_t>(reserved_end_ - end),
                               space_mode::keep_size);
    });
  return 0;
}

}  // namespace sluice::detail
