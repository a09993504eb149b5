// The background half of writer_options::write_behind: one thread that
// writes the buffers a writer hands off, in order, while the writer fills
// the next one. Memory is bounded: at most `depth` buffers are queued.
//
// The writer assigns each buffer its file offset when it hands it off, so
// the file's position stays the writer's alone. After a failure the thread
// writes nothing more; what it could not write is kept, in file order, for
// the writer to take back (failure()).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "sluice/writer.hpp"

namespace sluice::detail {

// A buffer from std::aligned_alloc and its size in bytes.
struct owned_buffer {
  std::unique_ptr<char[], free_deleter> data;
  std::size_t capacity = 0;
};

// At least `capacity` bytes (rounded up to a multiple of `align`, a power
// of two), aligned to `align`. Throws std::bad_alloc.
owned_buffer allocate_buffer(std::size_t capacity, std::size_t align);

class write_behind {
 public:
  // What the thread does with each buffer: writes data[0, size) at `offset`,
  // or throws; either way `written` (0 on entry) says how many of the bytes
  // reached the file.
  using step = std::function<void(const char* data, std::size_t size, std::uint64_t offset,
                                  std::uint64_t& written)>;

  // What the thread could not write, from the first failure on.
  struct failed_writes {
    std::exception_ptr error;
    std::uint64_t offset;  // of the first byte not written
    // The bytes from `offset` on, in order; valid while this object lives.
    std::vector<std::span<const char>> unwritten;
  };

  // Starts the thread. `depth` buffers at most are queued at a time;
  // `align` is that of every buffer it allocates.
  write_behind(std::size_t depth, std::size_t align, step write);
  write_behind(const write_behind&) = delete;
  write_behind& operator=(const write_behind&) = delete;
  // Waits for the queued writes (or the failure), then ends the thread.
  ~write_behind();

  // Waits while `depth` buffers are queued, then queues full[0, size) to be
  // written at `offset`, taking `full` (of `capacity` bytes), and returns
  // an empty buffer of at least `capacity` bytes, recycled or new. Once the
  // thread has failed it returns no buffer (null data) and failure() holds
  // `full` among the unwritten. If allocating throws, `full` is left alone.
  owned_buffer hand_off(std::unique_ptr<char[], free_deleter>& full, std::size_t capacity,
                        std::size_t size, std::uint64_t offset);

  // Waits until every queued buffer is written. False if the thread failed.
  bool drain();

  // Has the thread use `write` from now on (the writer moved). Call it
  // only after drain(), while nothing is queued.
  void rebind(step write);

  // After hand_off() or drain() said so: what failed and what is unwritten.
  failed_writes failure() const;

 private:
  struct job {
    owned_buffer buffer;
    std::size_t size;
    std::uint64_t offset;
  };

  void run();
  void finish_job(std::exception_ptr error, std::uint64_t written);
  owned_buffer take_free(std::size_t capacity);
  bool idle() const { return jobs_.empty() || error_; }

  const std::size_t depth_;
  const std::size_t align_;
  step write_;
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
