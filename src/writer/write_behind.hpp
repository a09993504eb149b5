// writer_options::write_behind: the writer hands off a full buffer with the
// file offset it goes to, and goes on filling an empty one; an engine writes
// the buffers it holds, at most `depth` at a time, and reports what it
// could not write. Memory is bounded: `depth` buffers handed off plus the
// one filling.
//
// write_behind is the flush strategy the two engines share: what to hand
// off (what the plain_flush or direct_flush it wraps would write as it is:
// all of a plain buffer, a direct one's whole blocks), and everything else
// left to that one, on the caller's thread, once the engine has written
// what it was given (flush(), close(), a write() large enough to skip the
// buffer). Two engines: thread_write_behind (one background thread writing
// the buffers in order, each followed by what the options ask after a
// write) and uring_write_behind (several io_uring writes in flight, reaped
// on the caller's thread), which caching_mode::direct uses without write_behind
// too, where it serves (start_in_flight).
//
// The writer's position assigns each buffer its file offset when it is
// handed off, so the file's position stays the writer's alone. After a
// failure an engine writes nothing more; what it could not write is kept,
// in file order from the first byte missing from the file, and taken back
// into the writer's buffer, and the file holds no byte past that one that
// the writer would write again. The engine then ends; the error sticks.
// Taking back allocates nothing: the memory for it (depth + 2 buffers of
// the writer's capacity, address space touched only after a failure) is
// reserved when the engine starts and whenever the writer's buffer grows,
// so that running out of memory cannot lose the failure nor its bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <span>
#include <vector>

#include "writer/foreground_flush.hpp"

namespace sluice::detail {

// A buffer handed off: its first `size` bytes go to the file at `offset`.
struct handed_off {
  owned_buffer buffer;
  std::size_t size;
  std::uint64_t offset;
};

class write_behind : public flush_strategy {
 public:
  // Everything of the buffer's shape is `inner`'s; the memory to take back
  // a failure grows to match first.
  owned_buffer allocate(std::size_t size) const override;
  std::size_t gather_threshold(std::size_t capacity) const noexcept override {
    return inner_->gather_threshold(capacity);
  }
  // Hands off what `inner` would write as it is, and goes on with a fresh
  // buffer holding the rest (direct's partial block); with nothing to hand
  // off, writes as write_all().
  void make_room(buffered_file& b) override;
  // Waits for the engine, then `inner` writes on the caller's thread.
  void write_all(buffered_file& b) override;
  // From gather_threshold() up: waits for the engine, then `inner` writes
  // the payload; below it, copies as every way does.
  void write(buffered_file& b, std::span<const char> payload) override;
  // As `inner`, once the engine is idle (close() waited for it).
  void finish(buffered_file& b, std::uint64_t reserved_end) override {
    inner_->finish(b, reserved_end);
  }
  void trim_after_failure(buffered_file& b, std::uint64_t reserved_end) noexcept override {
    inner_->trim_after_failure(b, reserved_end);
  }
  write_behind_engine engine() const noexcept override;
  // Waits for the engine; a failure stays recorded, for the writer that
  // moved to throw. Allocates nothing it cannot do without: an engine with
  // no memory for a failure's message records an error made when it started.
  void rebind(buffered_file& to) noexcept override;

  // What the engine could not write, from the first failure on.
  struct failed_writes {
    std::exception_ptr error;
    std::uint64_t offset;  // of the first byte not written
    // The bytes from `offset` on, in order; valid while the engine lives.
    std::vector<std::span<const char>> unwritten;
  };

  // The engine's part, which the calls above drive (public for the
  // engines' unit tests). queue(): waits while `depth` buffers are queued,
  // then queues full[0, size) to be written at `offset`, taking `full` (of
  // `capacity` bytes), and returns an empty buffer of at least `capacity`
  // bytes, recycled or new. Once the engine has failed it returns no buffer
  // (null data) and collect_failure() reports `full` among the unwritten.
  // If allocating throws, `full` is left alone.
  virtual owned_buffer queue(std::unique_ptr<char[], free_deleter>& full, std::size_t capacity,
                             std::size_t size, std::uint64_t offset) = 0;
  // Waits until every queued buffer is written. False if the engine failed.
  virtual bool wait() = 0;
  // After queue() or wait() said so: what failed and what is unwritten,
  // into `into`, whose `unwritten` keeps its capacity: allocates nothing if
  // it has room for depth + 1 pieces.
  virtual void collect_failure(failed_writes& into) const = 0;
  // Ends the engine, once idle or failed: the thread joined, the ring
  // closed, the buffers freed.
  virtual void stop() noexcept = 0;
  virtual write_behind_engine kind() const noexcept = 0;

 protected:
  // Reserves the memory to take back a failure of buffers of `capacity`
  // bytes. Throws std::bad_alloc.
  write_behind(std::unique_ptr<foreground_flush> inner, std::size_t depth, std::size_t capacity);

  // Waits for the engine (if it still runs); takes back its failure.
  void drain(buffered_file& b);
  // Adds to `failed` what of `queued` lies at or after failed.offset.
  static void add_unwritten(failed_writes& failed, const handed_off& queued);

  const std::unique_ptr<foreground_flush> inner_;
  const std::size_t depth_;
  bool stopped_ = false;  // the engine ended after a failure

 private:
  void reserve_take_back(std::size_t capacity) const;
  void take_back(buffered_file& b, std::span<const char> rest) noexcept;

  // Room for every byte a failure can leave unwritten: depth + 1 buffers
  // handed off and the rest of the writer's. Mutable: allocate() grows it.
  mutable owned_buffer take_back_room_;
  failed_writes failed_;  // its `unwritten` has room for depth + 2 pieces
};

// caching_mode::direct without write_behind: the io_uring engine over `inner`,
// two writes in flight, where the ring serves (as start_write_behind
// says); else `inner` itself, writing on the caller's thread.
std::unique_ptr<flush_strategy> start_in_flight(std::unique_ptr<foreground_flush> inner,
                                                buffered_file& b, bool emptying);

// The write-behind way over `inner` for b's file: io_uring where it can
// serve (liburing, a regular file not in append mode nor borrowed, nothing
// to follow each write), else the thread. Allocates every buffer the
// engine needs. `emptying`: the caller empties the file once the engine is
// started (its old content does not count).
std::unique_ptr<flush_strategy> start_write_behind(std::unique_ptr<foreground_flush> inner,
                                                   buffered_file& b, bool emptying);

}  // namespace sluice::detail
