#include "ordered_chunks.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
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

// The shared state: which chunk is next to start, how many are consumed.
class pipeline {
 public:
  pipeline(std::size_t chunks, std::size_t workers) : chunks_(chunks), slots_(2 * workers) {}

  // A worker's loop: take the next chunk while its slot is free.
  void work(const produce_chunk& produce) {
    std::unique_lock lock(mutex_);
    while (true) {
      slot_free_.wait(
          lock, [&] { return stopped_ || next_ == chunks_ || next_ < consumed_ + slots_.size(); });
      if (stopped_ || next_ == chunks_) return;
      std::size_t chunk = next_++;
      slot& s = slots_[chunk % slots_.size()];
      lock.unlock();
      try {
        produce(chunk, s.text);
      } catch (...) {
        s.error = std::current_exception();
      }
      lock.lock();
      // The chunks before this one were all taken, so they still complete.
      if (s.error) stopped_ = true;
      s.ready = true;
      slot_ready_.notify_one();
    }
  }

  // The consumer's loop, on the calling thread.
  void consume_all(const consume_chunk& consume) {
    for (std::size_t chunk = 0; chunk < chunks_; ++chunk) {
      slot& s = slots_[chunk % slots_.size()];
      {
        std::unique_lock lock(mutex_);
        slot_ready_.wait(lock, [&] { return s.ready; });
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
  std::mutex mutex_;
  std::condition_variable slot_free_;   // a worker may start a chunk, or stop
  std::condition_variable slot_ready_;  // the consumer's next chunk may be made
  const std::size_t chunks_;
  std::vector<slot> slots_;
  std::size_t next_ = 0;      // the next chunk a worker starts
  std::size_t consumed_ = 0;  // chunks consumed; their slots are free
  bool stopped_ = false;
};

}  // namespace

void for_each_chunk_in_order(std::size_t chunks, unsigned threads, const produce_chunk& produce,
                             const consume_chunk& consume) {
  // At least one, at most one per chunk.
  std::size_t count =
      std::min<std::size_t>(std::max(threads, 1u), std::max<std::size_t>(chunks, 1));
  pipeline line(chunks, count);
  std::vector<std::jthread> workers;
  struct stop_and_join {
    pipeline& line;
    std::vector<std::jthread>& workers;
    ~stop_and_join() {
      line.stop();
      workers.clear();
    }
  } guard{line, workers};
  for (std::size_t i = 0; i < count; ++i)
    workers.emplace_back([&line, &produce] { line.work(produce); });
  line.consume_all(consume);
}

}  // namespace bin2text
