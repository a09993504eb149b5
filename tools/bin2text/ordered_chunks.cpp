#include "ordered_chunks.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace bin2text {

char* block::room(std::size_t n) {
  if (n > capacity) {
    bytes = std::make_unique_for_overwrite<char[]>(n);
    capacity = n;
  }
  return bytes.get();
}

namespace {

struct slot {
  block text;
  bool ready = false;  // produced, not yet consumed
  std::exception_ptr error;
};

// The shared state: which chunk starts next, whether one is starting, how
// many are consumed, and where the chunks end once a start has said so.
class pipeline {
 public:
  explicit pipeline(std::size_t workers) : slots_(2 * workers) {}

  // A worker's loop: start the next chunk in turn, then produce it.
  void work(const start_chunk& start, const produce_chunk& produce) {
    std::unique_lock lock(mutex_);
    while (std::optional<std::size_t> chunk = start_next(lock, start)) {
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
      // The chunks before this one were all started, so they still complete.
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
        slot_ready_.wait(lock, [&] { return s.ready || (ended_ && chunk == end_); });
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
  // Waits until no start is under way and the next chunk's slot is
  // consumed, then starts that chunk (the lock released meanwhile): the
  // chunk, or nothing once the chunks have ended or the work has stopped.
  std::optional<std::size_t> start_next(std::unique_lock<std::mutex>& lock,
                                        const start_chunk& start) {
    slot_free_.wait(lock, [&] { return stopped_ || ended_ || may_start(); });
    if (stopped_ || ended_) return std::nullopt;
    std::size_t chunk = next_;
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
    if (!exists) {
      end_at(chunk);
      return std::nullopt;
    }
    ++next_;
    slot_free_.notify_all();  // the next chunk may start
    return chunk;
  }

  // No start under way, and the next chunk's slot is consumed.
  bool may_start() const { return !starting_ && next_ < consumed_ + slots_.size(); }

  // Called with the lock held: `chunk` does not exist, the chunks end there.
  void end_at(std::size_t chunk) {
    ended_ = true;
    end_ = chunk;
    slot_free_.notify_all();
    slot_ready_.notify_one();
  }

  std::mutex mutex_;
  std::condition_variable slot_free_;   // a worker may start a chunk, or stop
  std::condition_variable slot_ready_;  // the consumer's next chunk may be made
  std::vector<slot> slots_;
  std::size_t next_ = 0;      // the next chunk a worker starts
  bool starting_ = false;     // a worker is in start()
  std::size_t consumed_ = 0;  // chunks consumed; their slots are free
  bool ended_ = false;        // a start said that chunk end_ does not exist
  std::size_t end_ = 0;
  bool stopped_ = false;
};

// Runs the workers and the consumer; stops and joins the workers on every
// way out.
void run_pipeline(std::size_t workers, const start_chunk& start, const produce_chunk& produce,
                  const consume_chunk& consume) {
  pipeline line(workers);
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
    threads.emplace_back([&line, &start, &produce] { line.work(start, produce); });
  line.consume_all(consume);
}

}  // namespace

void for_each_chunk_in_order(unsigned threads, const start_chunk& start,
                             const produce_chunk& produce, const consume_chunk& consume) {
  run_pipeline(std::max(threads, 1u), start, produce, consume);
}

void for_each_chunk_in_order(std::size_t chunks, unsigned threads, const produce_chunk& produce,
                             const consume_chunk& consume) {
  // At least one, at most one per chunk.
  std::size_t workers =
      std::min<std::size_t>(std::max(threads, 1u), std::max<std::size_t>(chunks, 1));
  run_pipeline(
      workers, [chunks](std::size_t chunk, block&) { return chunk < chunks; }, produce, consume);
}

}  // namespace bin2text
