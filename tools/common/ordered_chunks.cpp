#include "common/ordered_chunks.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace sluice_tools {

char* block::room(std::size_t n) {
  if (n > capacity) {
    bytes = std::make_unique_for_overwrite<char[]>(n);
    capacity = n;
  }
  return bytes.get();
}

unsigned worker_count(unsigned asked) noexcept {
  return asked != 0 ? asked : std::max(1u, std::thread::hardware_concurrency());
}

namespace {

struct slot {
  block text;
  bool ready = false;  // produced, not yet consumed
  std::exception_ptr error;
};

// The shared state: which chunk is taken next, whether one is starting, how
// many are consumed, and where the chunks end: known up front, or once a
// start says so.
class pipeline {
 public:
  pipeline(std::size_t workers, std::optional<std::size_t> end) : slots_(2 * workers), end_(end) {}

  // A worker's loop: take the next chunk (starting it in turn, if there is
  // a start step), then produce it.
  void work(const start_chunk* start, const produce_chunk& produce) {
    std::unique_lock lock(mutex_);
    while (std::optional<std::size_t> chunk = take_next(lock, start)) {
      slot& s = slots_[*chunk % slots_.size()];
      if (!s.error) {
        lock.unlock();
        try {
          produce(*chunk, s.text);
        } catch (...) {
          s.error = std::current_exception();
        }
        lock.lock();
      }
      // The chunks before this one were all taken, so they still complete.
      if (s.error) stopped_ = true;
      s.ready = true;
      slot_ready_.notify_one();
    }
  }

  // The consumer's loop, on the calling thread.
  void consume_all(const consume_chunk& consume) {
    for (std::size_t chunk = 0;; ++chunk) {
      slot& s = slots_[chunk % slots_.size()];
      {
        std::unique_lock lock(mutex_);
        slot_ready_.wait(lock, [&] { return s.ready || end_ == chunk; });
        if (!s.ready) return;
      }
      if (s.error) std::rethrow_exception(s.error);
      consume(chunk, s.text);
      {
        std::lock_guard lock(mutex_);
        s.ready = false;
        ++consumed_;
      }
      slot_free_.notify_all();
    }
  }

  void stop() {
    {
      std::lock_guard lock(mutex_);
      stopped_ = true;
    }
    slot_free_.notify_all();
  }

 private:
  // Waits until the next chunk's slot is consumed and no start is under
  // way, then takes that chunk, and starts it if there is a start step: the
  // chunk, or nothing once the chunks have ended or the work has stopped.
  // A chunk known to exist is taken without releasing the lock.
  std::optional<std::size_t> take_next(std::unique_lock<std::mutex>& lock,
                                       const start_chunk* start) {
    slot_free_.wait(lock, [&] { return stopped_ || end_ == next_ || may_take(); });
    if (stopped_ || end_ == next_) return std::nullopt;
    std::size_t chunk = next_;
    if (start && !started(lock, *start, chunk)) {
      end_at(chunk);
      return std::nullopt;
    }
    ++next_;
    // Another worker may have waited for this start to end.
    if (start && may_take()) slot_free_.notify_one();
    return chunk;
  }

  // Calls start(chunk) with the lock released, no other start under way;
  // false if there is no such chunk. An exception goes to the chunk's slot.
  bool started(std::unique_lock<std::mutex>& lock, const start_chunk& start, std::size_t chunk) {
    slot& s = slots_[chunk % slots_.size()];
    starting_ = true;
    lock.unlock();
    bool exists = true;
    try {
      exists = start(chunk, s.text);
    } catch (...) {
      s.error = std::current_exception();
    }
    lock.lock();
    starting_ = false;
    return exists;
  }

  // No start under way, and the next chunk's slot is consumed.
  bool may_take() const { return !starting_ && next_ < consumed_ + slots_.size(); }

  // Called with the lock held: `chunk` does not exist, the chunks end there.
  void end_at(std::size_t chunk) {
    end_ = chunk;
    slot_free_.notify_all();
    slot_ready_.notify_one();
  }

  std::mutex mutex_;
  std::condition_variable slot_free_;   // a worker may take a chunk, or stop
  std::condition_variable slot_ready_;  // the consumer's next chunk may be made
  std::vector<slot> slots_;
  std::size_t next_ = 0;            // the next chunk a worker takes
  bool starting_ = false;           // a worker is in start()
  std::size_t consumed_ = 0;        // chunks consumed; their slots are free
  std::optional<std::size_t> end_;  // the number of chunks, once known
  bool stopped_ = false;
};

// Runs the workers and the consumer; stops and joins the workers on every
// way out.
void run_pipeline(std::size_t workers, std::optional<std::size_t> end, const start_chunk* start,
                  const produce_chunk& produce, const consume_chunk& consume) {
  pipeline line(workers, end);
  std::vector<std::jthread> threads;
  struct stop_and_join {
    pipeline& line;
    std::vector<std::jthread>& threads;
    ~stop_and_join() {
      line.stop();
      threads.clear();
    }
  } guard{line, threads};
  for (std::size_t i = 0; i < workers; ++i)
    threads.emplace_back([&line, start, &produce] { line.work(start, produce); });
  line.consume_all(consume);
}

}  // namespace

void for_each_chunk_in_order(unsigned threads, const start_chunk& start,
                             const produce_chunk& produce, const consume_chunk& consume) {
  run_pipeline(std::max(threads, 1u), std::nullopt, &start, produce, consume);
}

void for_each_chunk_in_order(std::size_t chunks, unsigned threads, const produce_chunk& produce,
                             const consume_chunk& consume) {
  // At least one, at most one per chunk.
  std::size_t workers =
      std::min<std::size_t>(std::max(threads, 1u), std::max<std::size_t>(chunks, 1));
  run_pipeline(workers, chunks, nullptr, produce, consume);
}

}  // namespace sluice_tools
