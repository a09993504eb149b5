#include "writer/write_behind.hpp"

#include <cstdlib>
#include <limits>
#include <new>
#include <utility>

namespace sluice::detail {

owned_buffer allocate_buffer(std::size_t capacity, std::size_t align) {
  if (capacity > std::numeric_limits<std::size_t>::max() - (align - 1)) throw std::bad_alloc();
  std::size_t rounded = (capacity + align - 1) / align * align;
  auto* data = static_cast<char*>(std::aligned_alloc(align, rounded));
  if (!data) throw std::bad_alloc();
  return {std::unique_ptr<char[], free_deleter>(data), rounded};
}

thread_write_behind::thread_write_behind(std::size_t depth, std::size_t align, step write)
    : depth_(depth), align_(align), write_(std::move(write)) {
  free_.reserve(depth + 1);  // so that the thread never allocates to give a buffer back
  thread_ = std::thread([this] { run(); });
}

thread_write_behind::~thread_write_behind() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return idle(); });
  stopping_ = true;
  lock.unlock();
  work_.notify_one();
  thread_.join();
}

owned_buffer thread_write_behind::hand_off(std::unique_ptr<char[], free_deleter>& full,
                                           std::size_t capacity, std::size_t size,
                                           std::uint64_t offset) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return jobs_.size() < depth_ || error_; });
  owned_buffer next;
  if (!error_) {
    next = take_free(free_, capacity);
    // No free buffer: fewer than depth + 1 exist (or they were too small).
    if (!next.data) next = allocate_buffer(capacity, align_);
  }
  job& queued = jobs_.emplace_back();  // may throw: `full` is not taken yet
  queued = {{std::move(full), capacity}, size, offset};
  work_.notify_one();
  return next;
}

owned_buffer take_free(std::vector<owned_buffer>& free, std::size_t capacity) {
  while (!free.empty()) {
    owned_buffer recycled = std::move(free.back());
    free.pop_back();
    if (recycled.capacity >= capacity) return recycled;  // else the writer's buffer grew: drop it
  }
  return {};
}

bool thread_write_behind::drain() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return idle(); });
  return !error_;
}

void thread_write_behind::rebind(step write) {
  std::lock_guard lock(mutex_);
  write_ = std::move(write);
}

void write_behind::add_unwritten(failed_writes& failed, const handed_off& queued) {
  std::uint64_t skip = queued.offset < failed.offset ? failed.offset - queued.offset : 0;
  if (skip >= queued.size) return;
  failed.unwritten.emplace_back(queued.buffer.data.get() + skip, queued.size - skip);
}

write_behind::failed_writes thread_write_behind::failure() const {
  std::lock_guard lock(mutex_);
  failed_writes failed{error_, failed_at_, {}};
  for (const job& queued : jobs_) add_unwritten(failed, queued);
  return failed;
}

void thread_write_behind::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    work_.wait(lock, [&] { return stopping_ || !idle(); });
    if (stopping_) return;
    // Only this thread removes jobs, so the front one stays put while unlocked.
    job& next = jobs_.front();
    lock.unlock();
    std::exception_ptr error;
    std::uint64_t written = 0;
    try {
      write_(next.buffer.data.get(), next.size, next.offset, written);
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    finish_job(std::move(error), written);
  }
}

// With the lock held: the front job is done; on failure it stays queued with
// everything after it, for failure() to report.
void thread_write_behind::finish_job(std::exception_ptr error, std::uint64_t written) {
  if (error) {
    error_ = std::move(error);
    failed_at_ = jobs_.front().offset + written;
  } else {
    free_.push_back(std::move(jobs_.front().buffer));
    jobs_.pop_front();
  }
  changed_.notify_all();
}

}  // namespace sluice::detail
