#include "writer/write_behind.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "writer/thread_write_behind.hpp"
#include "writer/uring_write_behind.hpp"

namespace sluice::detail {

void write_behind::make_room(buffered_file& b) {
  std::size_t held = b.held();
  std::size_t whole = inner_->ready(held);
  if (stopped_ || whole == 0) return write_all(b);
  std::uint64_t offset = b.target_.position();
  char* tail = b.begin_ + whole;
  owned_buffer next = queue(b.storage_, b.capacity_, whole, offset);
  b.target_.seek(offset + whole);
  if (!next.data) return take_back(b, {tail, held - whole});  // tail: in the queued buffer
  std::memcpy(next.data.get(), tail, held - whole);           // the old buffer waits in the queue
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
  if (!stopped_ && !wait()) take_back(b, {b.begin_, b.held()});
}

void write_behind::add_unwritten(failed_writes& failed, const handed_off& queued) {
  std::uint64_t skip = queued.offset < failed.offset ? failed.offset - queued.offset : 0;
  if (skip >= queued.size) return;
  failed.unwritten.emplace_back(queued.buffer.data.get() + skip, queued.size - skip);
}

// The engine failed: the bytes it could not write, then `rest` (those that
// follow them), become the buffer; position() goes back to the first of
// them, the engine ends, and its error sticks and is thrown.
void write_behind::take_back(buffered_file& b, std::span<const char> rest) {
  failed_writes failed = failure();
  b.fail(failed.error);  // sticks, and stops inline writes, even if what follows cannot allocate
  failed.unwritten.push_back(rest);
  std::size_t total = 0;
  for (auto piece : failed.unwritten) total += piece.size();
  owned_buffer taken_back = inner_->allocate(std::max(b.capacity_, total));
  char* to = taken_back.data.get();
  for (auto piece : failed.unwritten) to = std::copy(piece.begin(), piece.end(), to);
  b.storage_ = std::move(taken_back.data);
  b.capacity_ = taken_back.capacity;
  b.begin_ = b.storage_.get();
  b.pos_ = b.begin_ + total;
  b.target_.seek(failed.offset);
  stop();
  stopped_ = true;
  b.fail(failed.error);
  b.rethrow_sticky();
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
