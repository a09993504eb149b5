// The write-behind engine on a thread: one background thread writes the
// buffers handed to it, in order, each with the wrapped way's step
// (foreground_flush::write_handed_off: the write, then its syncs and cache
// dropping). After a failure it writes nothing more, so the file holds
// exactly the bytes before the first one missing. Serves every file the
// writer can write, pipes included.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "writer/write_behind.hpp"

namespace sluice::detail {

class thread_write_behind final : public write_behind {
 public:
  // Starts the thread, writing b's file through `inner`. `depth` buffers at
  // most are queued at a time; they are allocated here. Throws
  // std::system_error if no thread can be started, std::bad_alloc.
  thread_write_behind(std::unique_ptr<foreground_flush> inner, buffered_file& b, std::size_t depth);
  // Waits for the queued writes (or the failure), then ends the thread.
  ~thread_write_behind() override;

  // Waits, then writes through `to` from now on.
  void rebind(buffered_file& to) noexcept override;

 private:
  using job = handed_off;

  owned_buffer queue(std::unique_ptr<char[], free_deleter>& full, std::size_t capacity,
                     std::size_t size, std::uint64_t offset) override;
  bool wait() override;
  void collect_failure(failed_writes& into) const override;
  void stop() noexcept override;
  write_behind_engine kind() const noexcept override { return write_behind_engine::thread; }

  void run();
  void finish_job(std::exception_ptr error, std::uint64_t written);
  bool idle() const { return jobs_.empty() || error_; }

  buffered_file* file_;  // the writer's, which the thread writes through
  mutable std::mutex mutex_;
  std::condition_variable work_;     // the thread waits here for jobs
  std::condition_variable changed_;  // the writer waits here for a free buffer or idleness
  std::deque<job> jobs_;             // the front one is being written
  std::vector<owned_buffer> free_;
  std::exception_ptr error_;  // the thread's failure, null if none
  std::uint64_t failed_at_ = 0;
  bool stopping_ = false;
  std::thread thread_;  // started by the constructor, once the rest is ready
};

}  // namespace sluice::detail
