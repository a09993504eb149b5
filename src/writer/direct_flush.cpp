#include "writer/direct_flush.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include "os/page_size.hpp"
#include "os/sys.hpp"
#include "sluice/error.hpp"

namespace sluice::detail {

direct_flush::direct_flush() noexcept : block_(page_size()) {}

// The buffer allocated before the open serves if a page is a multiple of
// the alignment; only a larger (or odd) one costs a second allocation.
void direct_flush::attach(buffered_file& b, write_followup followup) {
  foreground_flush::attach(b, followup);
  block_ = b.target_.direct_io_alignment();
  filesystem on = filesystem::other;
  grows_ahead_ = sys().filesystem_of(b.target_.native_handle(), &on) == 0 &&
                 (on == filesystem::ext4 || on == filesystem::xfs);
  if (b.storage_ && page_size() % block_ != 0) install_buffer(b, allocate(b.capacity_));
}

// A direct writer's buffer starts on a page even where the device asks for
// less: 512-byte alignment made 256 KiB O_DIRECT writes 25x slower on this
// project's test VM (39 against 975 MB/s), the kernel splitting them at
// every page.
owned_buffer direct_flush::allocate(std::size_t size) const {
  return allocate_buffer(size, alignment());
}

std::size_t direct_flush::alignment() const noexcept { return std::max(block_, page_size()); }

std::size_t direct_flush::gather_threshold(std::size_t) const noexcept {
  return std::numeric_limits<std::size_t>::max();
}

void direct_flush::write_all(buffered_file& b) {
  std::size_t held = b.held();
  if (held == 0) return;
  std::uint64_t start = b.target_.position();
  write_blocks(b, held);
  follow(b, start, held);
}

// Writes the buffer at position() (block aligned), padded with zeros to
// whole blocks. A partial last block stays buffered, moved to the front,
// and position() stays at its start, so that the next write rewrites that
// block with what follows.
void direct_flush::write_blocks(buffered_file& b, std::size_t held) {
  std::size_t padded = (held + block_ - 1) / block_ * block_;  // fits: the buffer is whole blocks
  std::memset(b.pos_, 0, padded - held);
  std::uint64_t start = b.target_.position();
  std::span<const std::byte> piece = bytes_of(b.begin_, padded);
  try {
    write_out(b, {&piece, 1}, held);
  } catch (const write_error&) {
    b.target_.seek(start + held - b.held());  // past the data, not the padding
    throw;
  }
  std::size_t whole = held - held % block_;
  std::memmove(b.begin_, b.begin_ + whole, held - whole);
  b.pos_ = b.begin_ + (held - whole);
  b.target_.seek(start + whole);
}

// At close, after the last write: the file is cut to its exact size and
// the partial block counts as written.
void direct_flush::finish(buffered_file& b, std::uint64_t) {
  std::uint64_t end = b.target_.position() + b.held();
  b.target_.resize(end);
  b.target_.seek(end);
  b.pos_ = b.begin_;
  follow_close(b);
}

void direct_flush::trim_after_failure(buffered_file& b, std::uint64_t) noexcept {
  if (!b.target_.is_open()) return;
  try {
    b.target_.resize(b.target_.position());
  } catch (const std::exception&) {
  }
}

}  // namespace sluice::detail
