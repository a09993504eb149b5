#include "writer/write_behind.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <new>
#include <utility>

#include "writer/thread_write_behind.hpp"
#include "writer/uring_write_behind.hpp"

namespace sluice::detail {

write_behind::write_behind(std::unique_ptr<foreground_flush> inner, std::size_t depth,
                           std::size_t capacity)
    : inner_(std::move(inner)), depth_(depth) {
  reserve_take_back(capacity);
  failed_.unwritten.reserve(depth + 2);
}

owned_buffer write_behind::allocate(std::size_t size) const {
  reserve_take_back(size);
  return inner_->allocate(size);
}

// Buffers handed off are never larger than the writer's (which only grows):
// depth + 1 of them (the one handed off after the failure) and the rest of
// the writer's fit in depth + 2.
void write_behind::reserve_take_back(std::size_t capacity) const {
  if (capacity > std::numeric_limits<std::size_t>::max() / (depth_ + 2)) throw std::bad_alloc();
  std::size_t needed = (depth_ + 2) * capacity;
  if (take_back_room_.capacity < needed) take_back_room_ = inner_->allocate(needed);
}

void write_behind::make_room(buffered_file& b) {
  std::size_t held = b.held();
  std::size_t whole = inner_->ready(held);
  if (stopped_ || whole == 0) return write_all(b);
  std::uint64_t offset = b.target_.position();
  char* tail = b.begin_ + whole;
  owned_buffer next = queue(b.storage_, b.capacity_, whole, offset);
  b.target_.seek(offset + whole);
  if (!next.data) {
    take_back(b, {tail, held - whole});  // tail: in the queued buffer
    b.rethrow_sticky();
  }
  std::memcpy(next.data.get(), tail, held - whole);  // the old buffer waits in the queue
  b.storage_ = std::move(next.data);
  b.begin_ = b.storage_.get();
  b.pos_ = b.begin_ + (held - whole);
  b.end_ = b.begin_ + b.capacity_;
}

void write_behind::write_all(buffered_file& b) {
  drain(b);
  inner_->write_all(b);
}

void write_behind::write(buffered_file& b, std::span<const char> payload) {
  if (payload.size() < gather_threshold(b.capacity_)) return flush_strategy::write(b, payload);
  drain(b);
  inner_->write(b, payload);
}

write_behind_engine write_behind::engine() const noexcept {
  return stopped_ ? write_behind_engine::none : kind();
}

void write_behind::rebind(buffered_file&) noexcept {
  if (!stopped_) wait();
}

void write_behind::drain(buffered_file& b) {
  if (stopped_ || wait()) return;
  take_back(b, {b.begin_, b.held()});
  b.rethrow_sticky();
}

void write_behind::add_unwritten(failed_writes& failed, const handed_off& queued) {
  std::uint64_t skip = queued.offset < failed.offset ? failed.offset - queued.offset : 0;
  if (skip >= queued.size) return;
  failed.unwritten.emplace_back(queued.buffer.data.get() + skip, queued.size - skip);
}

// The engine failed: the bytes it could not write, then `rest` (those that
// follow them), become the buffer (the room reserved for it: nothing is
// allocated); position() goes back to the first of them, the engine ends,
// and its error sticks. The caller throws it.
void write_behind::take_back(buffered_file& b, std::span<const char> rest) noexcept {
  collect_failure(failed_);
  failed_.unwritten.push_back(rest);
  char* to = take_back_room_.data.get();
  for (auto piece : failed_.unwritten) to = std::copy(piece.begin(), piece.end(), to);
  b.storage_ = std::move(take_back_room_.data);
  b.capacity_ = std::exchange(take_back_room_.capacity, 0);
  b.begin_ = b.storage_.get();
  b.pos_ = to;
  b.target_.seek(failed_.offset);
  stop();
  stopped_ = true;
  b.fail(failed_.error);
  failed_.unwritten.clear();  // they pointed into the engine's buffers, freed
}

namespace {

// The io_uring engine over `inner` for b's file, if it may serve: nothing
// follows each write, and the file is written at offsets (a borrowed
// descriptor is written at its own offset, one write after another: only
// the thread keeps that order). Null, with `inner` left alone, otherwise.
std::unique_ptr<flush_strategy> open_ring(std::unique_ptr<foreground_flush>& inner,
                                          buffered_file& b, bool emptying) {
  if (inner->followup().follows_each_write() || b.target_.sequential()) return nullptr;
  return uring_write_behind::open(inner, b, writer_options::write_behind_depth, emptying);
}

}  // namespace

std::unique_ptr<flush_strategy> start_in_flight(std::unique_ptr<foreground_flush> inner,
                                                buffered_file& b, bool emptying) {
  if (auto ring = open_ring(inner, b, emptying)) return ring;
  return inner;
}

std::unique_ptr<flush_strategy> start_write_behind(std::unique_ptr<foreground_flush> inner,
                                                   buffered_file& b, bool emptying) {
  if (auto ring = open_ring(inner, b, emptying)) return ring;
  return std::make_unique<thread_write_behind>(std::move(inner), b,
                                               writer_options::write_behind_depth);
}

}  // namespace sluice::detail
