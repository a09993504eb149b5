// The engines behind writer_options::write_behind. The writer hands off a
// full buffer with the file offset it goes to, and goes on filling an empty
// one; the engine writes the buffers it holds, at most `depth` at a time,
// and reports what it could not write. Memory is bounded: `depth` buffers
// handed off plus the one filling.
//
// Two engines: thread_write_behind (below), one background thread writing
// the buffers in order, after each write running the writer's step (its
// syncs and cache dropping); uring_write_behind (uring_write_behind.hpp),
// several io_uring writes in flight, reaped on the caller's thread.
//
// The writer assigns each buffer its file offset when it hands it off, so
// the file's position stays the writer's alone. After a failure an engine
// writes nothing more; what it could not write is kept, in file order from
// the first byte missing from the file, for the writer to take back
// (failure()), and the file holds no byte past that one that the writer
// would write again.
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

// The last of `free` that holds at least `capacity` bytes, taken out of it;
// those smaller are dropped on the way (the writer's buffer grew). None if
// there is no such buffer.
owned_buffer take_free(std::vector<owned_buffer>& free, std::size_t capacity);

// A buffer handed off: its first `size` bytes go to the file at `offset`.
struct handed_off {
  owned_buffer buffer;
  std::size_t size;
  std::uint64_t offset;
};

// What every engine does; the writer sees only this.
class write_behind {
 public:
  // What the thread engine does with each buffer: writes data[0, size) at
  // `offset`, or throws; either way `written` (0 on entry) says how many of
  // the bytes reached the file.
  using step = std::function<void(const char* data, std::size_t size, std::uint64_t offset,
                                  std::uint64_t& written)>;

  // What the engine could not write, from the first failure on.
  struct failed_writes {
    std::exception_ptr error;
    std::uint64_t offset;  // of the first byte not written
    // The bytes from `offset` on, in order; valid while this object lives.
    std::vector<std::span<const char>> unwritten;
  };

  write_behind() = default;
  write_behind(const write_behind&) = delete;
  write_behind& operator=(const write_behind&) = delete;
  // Waits for the writes in progress (or the failure), then ends.
  virtual ~write_behind() = default;

  // Waits while `depth` buffers are queued, then queues full[0, size) to be
  // written at `offset`, taking `full` (of `capacity` bytes), and returns
  // an empty buffer of at least `capacity` bytes, recycled or new. Once the
  // engine has failed it returns no buffer (null data) and failure() holds
  // `full` among the unwritten. If allocating throws, `full` is left alone.
  virtual owned_buffer hand_off(std::unique_ptr<char[], free_deleter>& full, std::size_t capacity,
                                std::size_t size, std::uint64_t offset) = 0;

  // Waits until every queued buffer is written. False if the engine failed.
  virtual bool drain() = 0;

  // Has the engine use `write` from now on (the writer moved), if it runs
  // the writer's step at all. Call it only after drain(), while nothing is
  // queued.
  virtual void rebind(step write) = 0;

  // After hand_off() or drain() said so: what failed and what is unwritten.
  virtual failed_writes failure() const = 0;

  virtual write_behind_engine engine() const noexcept = 0;

 protected:
  // Adds to `failed` what of `queued` lies at or after failed.offset.
  static void add_unwritten(failed_writes& failed, const handed_off& queued);
};

// One thread that writes the buffers handed to it, in order, each with the
// writer's step. After a failure it writes nothing more, so the file holds
// exactly the bytes before the first one missing.
class thread_write_behind final : public write_behind {
 public:
  // Starts the thread. `depth` buffers at most are queued at a time;
  // `align` is that of every buffer it allocates.
  thread_write_behind(std::size_t depth, std::size_t align, step write);
  // Waits for the queued writes (or the failure), then ends the thread.
  ~thread_write_behind() override;

  owned_buffer hand_off(std::unique_ptr<char[], free_deleter>& full, std::size_t capacity,
                        std::size_t size, std::uint64_t offset) override;
  bool drain() override;
  void rebind(step write) override;
  failed_writes failure() const override;
  write_behind_engine engine() const noexcept override { return write_behind_engine::thread; }

 private:
  using job = handed_off;

  void run();
  void finish_job(std::exception_ptr error, std::uint64_t written);
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
