// sluice::reader's buffer: allocation, growth, and refilling it from the
// file, with the checks on where the file ends.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <limits>
#include <new>
#include <string>

#include "os/error_messages.hpp"
#include "os/page_size.hpp"
#include "reader/line_search.hpp"
#include "sluice/reader.hpp"
#include "writer/aligned_buffer.hpp"

namespace sluice {
namespace {

std::uint64_t align_down(std::uint64_t value, std::size_t align) noexcept {
  return value / align * align;
}

std::size_t align_up(std::size_t value, std::size_t align) {
  if (value > std::numeric_limits<std::size_t>::max() - align) throw std::bad_alloc();
  return (value + align - 1) / align * align;
}

// Where the bytes start in the buffer's memory. On AMD CPUs, 16 bytes past
// a cache line, 1 KiB into a page: there the kernel's copy out of the page
// cache (rep movsb, from page-aligned pages) ran 11-18% faster than into a
// page-aligned buffer, and lines as fast (measured on one Zen 4:
// docs/performance.md, "Where a buffer starts"). Elsewhere, and for
// direct's aligned reads, at the page's start, which no CPU is known to
// copy into slower.
std::size_t copy_lead(std::size_t align) noexcept {
#if defined(__x86_64__)
  static const bool amd = (__builtin_cpu_init(), __builtin_cpu_is("amd"));
  if (amd && align == 1) return 1024 + 16;
#endif
  return 0;
}

// Memory for a buffer of `capacity` bytes (rounded up to `align`) after
// copy_lead() bytes, with a line-search block of padding after them, on a
// page (detail::allocate_buffer: from memory a freed buffer leaves, its
// pages in). Not zeroed: the line search zeroes what it reads past the
// data (reader::index_from).
detail::owned_buffer allocate(std::size_t capacity, std::size_t align) {
  std::size_t memory = std::max({align, detail::page_size(), detail::newline_block_size});
  capacity = align_up(capacity, align);
  std::size_t extra = copy_lead(align) + detail::newline_block_size;
  if (capacity > std::numeric_limits<std::size_t>::max() - extra) throw std::bad_alloc();
  detail::owned_buffer buffer = detail::allocate_buffer(capacity + extra, memory);
  buffer.capacity = capacity;
  return buffer;
}

}  // namespace

void reader::start_buffer(std::size_t capacity, std::uint64_t offset) {
  detail::owned_buffer buffer = allocate(std::max(capacity, align_), align_);
  newlines_.reset(new std::uint32_t[detail::newline_index_capacity]);
  adopt(std::move(buffer.data), buffer.capacity);
  restart_at(offset);
  dropped_to_ = offset;
}

// Empties the buffer and makes `offset` the position: the next refill reads
// there (direct: from the block holding it).
void reader::restart_at(std::uint64_t offset) noexcept {
  base_ = align_down(offset, align_);
  pos_ = end_ = begin_ + (offset - base_);
  next_newline_ = newlines_end_ = nullptr;
  indexed_to_ = offset;
}

// Makes at least `want` bytes buffered from the position, unless the file
// ends first. Returns the count buffered.
std::size_t reader::fill(std::size_t want) {
  while (static_cast<std::size_t>(end_ - pos_) < want) {
    if (!read_more(want)) break;
  }
  return static_cast<std::size_t>(end_ - pos_);
}

// One read after what is buffered, as large as the buffer allows; false
// if it found the end of the file.
bool reader::read_more(std::size_t want) {
  forget_newlines();  // the buffer moves
  make_room(want);
  std::uint64_t end_offset = base_ + static_cast<std::uint64_t>(end_ - begin_);
  std::uint64_t from = align_down(end_offset, align_);  // direct: re-read a partial block
  std::byte* into = begin_ + (from - base_);
  std::size_t asked = capacity_ - static_cast<std::size_t>(into - begin_);
  std::size_t got = read_file({into, asked}, from);
  if (into + got < end_) throw_shrank(from + got);  // bytes it had are gone
  bool more = into + got > end_;
  end_ = into + got;
  if (options_.caching == caching_mode::no_cache) drop_behind();
  return more;
}

// Leaves room after end_ for `want` bytes from the position: moves what is
// buffered from the position (direct: from its block) to the front, into a
// larger buffer if the buffer cannot hold it and `want` more.
void reader::make_room(std::size_t want) {
  std::uint64_t keep_offset = align_down(tell(), align_);
  std::byte* keep = begin_ + (keep_offset - base_);
  auto kept = static_cast<std::size_t>(end_ - keep);
  auto lead = static_cast<std::size_t>(pos_ - keep);
  if (want > std::numeric_limits<std::size_t>::max() - lead - align_) throw std::bad_alloc();
  std::size_t needed = align_up(lead + want, align_);
  if (needed > capacity_) {
    grow(std::max(needed, 2 * capacity_), keep, kept);
  } else if (keep != begin_) {
    std::memmove(begin_, keep, kept);
  } else {
    return;
  }
  base_ = keep_offset;
  pos_ = begin_ + lead;
  end_ = begin_ + kept;
}

// A larger buffer holding the `kept` bytes at `keep` at its front.
void reader::grow(std::size_t capacity, const std::byte* keep, std::size_t kept) {
  detail::owned_buffer bigger = allocate(capacity, align_);
  std::memcpy(bigger.data.get() + copy_lead(align_), keep, kept);
  adopt(std::move(bigger.data), bigger.capacity);
}

// Makes `memory` (from allocate()) the reader's buffer.
void reader::adopt(std::unique_ptr<char[], detail::free_deleter> memory,
                   std::size_t capacity) noexcept {
  storage_ = std::move(memory);
  capacity_ = capacity;
  begin_ = reinterpret_cast<std::byte*>(storage_.get()) + copy_lead(align_);
}

// Reads into `into` at `offset` through the file. A seekable file gives
// all of it unless it ends first, which must not be below the size it had
// at open. A stream gives what has arrived, 0 only at its end, so that a
// line is handed out when it comes, not when the buffer is full; a failure
// there sticks: the bytes the failed call took from it cannot be read again.
std::size_t reader::read_file(std::span<std::byte> into, std::uint64_t offset) {
  if (failure_) std::rethrow_exception(failure_);
  std::size_t got = 0;
  try {
    got = seekable_ ? source_.read_at(into, offset) : source_.read_some_at(into, offset);
  } catch (...) {
    if (!seekable_) failure_ = std::current_exception();
    throw;
  }
  if (got < into.size() && seekable_ && offset + got < size_at_open_) throw_shrank(offset + got);
  return got;
}

void reader::throw_shrank(std::uint64_t offset) const {
  throw std::system_error(ENODATA, std::generic_category(),
                          detail::describe("read", path(), offset) + ": file shrank to " +
                              std::to_string(offset) + " bytes, " + std::to_string(size_at_open_) +
                              " at open");
}

}  // namespace sluice
