#include "writer/thread_write_behind.hpp"

#include <utility>

namespace sluice::detail {

thread_write_behind::thread_write_behind(std::unique_ptr<foreground_flush> inner, buffered_file& b,
                                         std::size_t depth)
    : write_behind(std::move(inner), depth, b.capacity_), file_(&b) {
  free_.reserve(depth + 1);  // so that the thread never allocates to give a buffer back
  // Every buffer up front, so that a hand-off allocates nothing.
  for (std::size_t i = 0; i < depth; ++i) free_.push_back(inner_->allocate(b.capacity_));
  thread_ = std::thread([this] { run(); });
}

thread_write_behind::~thread_write_behind() { stop(); }

void thread_write_behind::stop() noexcept {
  if (!thread_.joinable()) return;
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return idle(); });
  stopping_ = true;
  lock.unlock();
  work_.notify_one();
  thread_.join();
  jobs_.clear();
  free_.clear();
}

void thread_write_behind::rebind(buffered_file& to) noexcept {
  write_behind::rebind(to);
  std::lock_guard lock(mutex_);
  file_ = &to;
}

owned_buffer thread_write_behind::queue(std::unique_ptr<char[], free_deleter>& full,
                                        std::size_t capacity, std::size_t size,
                                        std::uint64_t offset) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return jobs_.size() < depth_ || error_; });
  owned_buffer next;
  if (!error_) {
    next = take_free(free_, capacity);
    // No free buffer: the writer's grew past them.
    if (!next.data) next = inner_->allocate(capacity);
  }
  job& queued = jobs_.emplace_back();  // may throw: `full` is not taken yet
  queued = {{std::move(full), capacity}, size, offset};
  work_.notify_one();
  return next;
}

bool thread_write_behind::wait() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return idle(); });
  return !error_;
}

void thread_write_behind::collect_failure(failed_writes& into) const {
  std::lock_guard lock(mutex_);
  into.error = error_;
  into.offset = failed_at_;
  into.unwritten.clear();
  for (const job& queued : jobs_) add_unwritten(into, queued);
}

void thread_write_behind::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    work_.wait(lock, [&] { return stopping_ || !idle(); });
    if (stopping_) return;
    // Only this thread removes jobs, so the front one stays put while unlocked.
    job& next = jobs_.front();
    buffered_file& b = *file_;
    lock.unlock();
    std::exception_ptr error;
    std::uint64_t written = 0;
    try {
      inner_->write_handed_off(b, next.buffer.data.get(), next.size, next.offset, written);
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    finish_job(std::move(error), written);
  }
}

// With the lock held: the front job is done; on failure it stays queued with
// everything after it, for collect_failure() to report.
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
