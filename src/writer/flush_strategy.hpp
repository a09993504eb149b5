// How a writer's buffer reaches the OS. Each way is one class behind this
// interface, in a file of its own:
//
//   plain_flush         pwritev at the file's position, a large payload
//                       gathered behind the buffer without a copy
//   direct_flush        caching_mode::direct: O_DIRECT in whole aligned blocks,
//                       the partial last block padded and written again,
//                       the file cut to its size at close
//   thread_write_behind write_behind: full buffers handed to a thread
//   uring_write_behind  write_behind: full buffers written through io_uring,
//                       several in flight; caching_mode::direct uses it too
//                       where it serves
//
// The two write-behind ways hand off what plain_flush or direct_flush would
// write, and let that one write the rest on the caller's thread (flush(),
// close()). The writer holds one strategy, chosen once when it opens its
// file (make_flush_strategy, then start_write_behind or start_in_flight),
// and calls it off the inline path only: when the buffer is full, on
// flush(), for a write that does not fit, at close.
//
// Every call works on the writer's buffered_file: it writes [begin_, pos_)
// at target_.position() and leaves buffered, with position() at their
// start, the bytes that did not reach the file (or that must be written
// again: direct's partial block). A failure to write sticks
// (buffered_file::sticking) and is thrown; a std::bad_alloc for a buffer
// does not stick: the writer goes on with the one it has.
#pragma once

#include <cstddef>
#include <memory>
#include <span>

#include "sluice/writer.hpp"
#include "writer/aligned_buffer.hpp"

namespace sluice::detail {

class flush_strategy {
 public:
  flush_strategy() = default;
  flush_strategy(const flush_strategy&) = delete;
  flush_strategy& operator=(const flush_strategy&) = delete;
  // A write-behind way waits for the writes it was given (or their
  // failure), then ends.
  virtual ~flush_strategy() = default;

  // A buffer for at least `size` bytes, in the shape every transfer needs
  // (aligned, whole blocks); its capacity is what the writer may fill.
  // Throws std::bad_alloc.
  virtual owned_buffer allocate(std::size_t size) const = 0;

  // writer::gather_threshold() for a buffer of `capacity` bytes.
  virtual std::size_t gather_threshold(std::size_t capacity) const noexcept = 0;

  // The buffer is full, or too small for a reserve(): makes room in it.
  virtual void make_room(buffered_file& b) = 0;

  // flush(): every buffered byte to the OS, after those handed off before.
  virtual void write_all(buffered_file& b) = 0;

  // A write() of `payload` that does not fit in the buffer's room. Copies
  // it in, making room as often as it fills; plain_flush sends one of
  // gather_threshold() bytes or more from the caller's memory instead.
  // What was copied before a failure counts as accepted, the rest not.
  virtual void write(buffered_file& b, std::span<const char> payload);

  // close(), after write_all(): the file cut to its exact size (and the
  // space writer_options::preallocate reserved up to `reserved_end` given
  // back where it passes the data; 0: none reserved), no_cache's cache
  // dropped.
  virtual void finish(buffered_file& b, std::uint64_t reserved_end) = 0;

  // After a failure: the file cut to the bytes known to be in it (and the
  // reservation up to `reserved_end` given back). A failure here adds
  // nothing to the one being reported: it is not reported.
  virtual void trim_after_failure(buffered_file& b, std::uint64_t reserved_end) noexcept = 0;

  // What writes the buffers handed off: none but for write-behind (and
  // caching_mode::direct where io_uring serves), and none once its engine has
  // failed.
  virtual write_behind_engine engine() const noexcept { return write_behind_engine::none; }

  // The writer is moving into the given one: a write-behind way waits for
  // what it was given (a failure stays recorded, for the new writer to
  // throw), then writes through it. Nothing for the others.
  virtual void rebind(buffered_file&) noexcept {}

  // The file has space reserved up to `end` past the data
  // (writer_options::preallocate): a way that cuts the file back while
  // writing keeps it reserved. Nothing for the others.
  virtual void reserved(std::uint64_t) noexcept {}
};

template <class Step>
void buffered_file::sticking(Step&& step) {
  try {
    step();
  } catch (...) {
    fail(std::current_exception());
    error_thrown_ = true;
    throw;
  }
}

// `fresh` becomes b's buffer, with the bytes b held copied to its front.
void install_buffer(buffered_file& b, owned_buffer fresh) noexcept;

}  // namespace sluice::detail
