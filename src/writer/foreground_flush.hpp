// What the two ways that write on the caller's thread share (plain_flush,
// direct_flush): the writes themselves, what follows each one
// (write_followup), and what a write-behind way needs of the one it wraps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "writer/flush_strategy.hpp"
#include "writer/write_followup.hpp"

namespace sluice::detail {

class foreground_flush : public flush_strategy {
 public:
  // Called once the file is open, before any byte is accepted: `followup`
  // is what follows each write from now on. direct_flush also learns the
  // file's alignment, and allocates b's buffer again if it does not fit it.
  virtual void attach(buffered_file& b, write_followup followup);

  // How many of `held` buffered bytes can be written as they are: all of
  // them, or direct's whole blocks.
  virtual std::size_t ready(std::size_t held) const noexcept { return held; }

  // A write-behind thread's step: writes data[0, size) (whole blocks for
  // direct I/O) to b's file at `offset`, then what follows a write;
  // `written` (0 on entry) counts the bytes that reached the file, also
  // when it throws.
  void write_handed_off(buffered_file& b, const char* data, std::size_t size, std::uint64_t offset,
                        std::uint64_t& written);

  const write_followup& followup() const noexcept { return followup_; }

  // How far past a write in flight an engine that overlaps writes keeps
  // the file's size (size_ahead.hpp), for buffers of `capacity` bytes: 0,
  // not at all, but for direct_flush.
  virtual std::uint64_t size_step(std::size_t) const noexcept { return 0; }

 protected:
  // Writes `pieces` at position(), whose first `held` bytes are the
  // buffer's. On failure what did not reach the file stays buffered, moved
  // to the front, and the error sticks.
  void write_out(buffered_file& b, std::span<const std::span<const std::byte>> pieces,
                 std::size_t held);
  // What follows the write of [start, start + length); a failure sticks.
  void follow(buffered_file& b, std::uint64_t start, std::uint64_t length);
  // What follows the last write, at close (write_followup::at_close).
  void follow_close(buffered_file& b);

 private:
  write_followup followup_;
};

// plain_flush, or direct_flush for caching_mode::direct (its alignment known only
// once attached: until then a page's).
std::unique_ptr<foreground_flush> make_flush_strategy(const writer_options& options);

std::span<const std::byte> bytes_of(const char* data, std::size_t size) noexcept;

}  // namespace sluice::detail
