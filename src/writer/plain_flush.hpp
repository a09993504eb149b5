// The plain way to the OS: the buffer written at the file's position with
// one pwritev (writev on a stream), and a write() too large to copy
// gathered behind it, straight from the caller's memory.
#pragma once

#include <cstddef>
#include <span>

#include "writer/foreground_flush.hpp"

namespace sluice::detail {

class plain_flush final : public foreground_flush {
 public:
  // Exactly `size` bytes, aligned for any type.
  owned_buffer allocate(std::size_t size) const override;
  // Twice the buffer: below it, copying measured as fast or faster
  // (docs/performance.md); from it up, the copy saved is pure gain.
  std::size_t gather_threshold(std::size_t capacity) const noexcept override {
    return 2 * capacity;
  }
  void make_room(buffered_file& b) override { write_all(b); }
  void write_all(buffered_file& b) override { write_with(b, {}); }
  // From gather_threshold() up, the buffer and the payload in one pwritev.
  void write(buffered_file& b, std::span<const char> payload) override;
  // Gives back the reservation: ftruncate to the size, if `reserved_end`
  // passes it (one fstat when something was reserved).
  void finish(buffered_file& b, std::uint64_t reserved_end) override;
  void trim_after_failure(buffered_file& b, std::uint64_t reserved_end) noexcept override;

 private:
  // One pwritev of the buffer and `payload`; on failure the buffered bytes
  // not written stay buffered, and the payload counts as accepted only as
  // far as it was written.
  void write_with(buffered_file& b, std::span<const char> payload);
};

}  // namespace sluice::detail
