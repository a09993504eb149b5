// The sluice tools: chunks of work made on several threads, consumed in order.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

namespace sluice_tools {

// A growable byte block a producer fills and the consumer reads.
struct block {
  std::unique_ptr<char[]> bytes;
  std::size_t capacity = 0;
  std::size_t size = 0;   // the bytes made, which the consumer reads
  std::size_t input = 0;  // what start_chunk put in the block, for produce_chunk

  // Room for at least n bytes from the start (the contents are not kept).
  char* room(std::size_t n);
};

// Begins chunk k in `out` (reads its input, say), or returns false if there
// is no chunk k: the chunks end there.
using start_chunk = std::function<bool(std::size_t chunk, block& out)>;
using produce_chunk = std::function<void(std::size_t chunk, block& out)>;
using consume_chunk = std::function<void(std::size_t chunk, const block& text)>;

// For chunk k = 0, 1, 2... until start returns false: start(k, block) and
// then produce(k, block) on one of `threads` worker threads, and
// consume(k, block) on the calling thread, in order, as soon as the block
// is made. The starts run one at a time and in order (the k-th begins once
// the one before it has returned), so that they may read a stream; the
// produces run at the same time as each other and as the starts. At most
// 2 * threads blocks exist at once, each reused: memory is bounded however
// many chunks there are. The chunks under way (started, not yet consumed)
// are consecutive, so chunk % (2 * threads) tells them apart: a caller may
// keep more per chunk in an array of that size. An exception from start or produce is rethrown here
// when its chunk's turn comes (the chunks before it are consumed first); one
// from consume is rethrown at once. Either way no chunk is started once the
// failure is known (those under way finish), and the workers are joined
// before this returns or throws.
void for_each_chunk_in_order(unsigned threads, const start_chunk& start,
                             const produce_chunk& produce, const consume_chunk& consume);

// The same for `chunks` chunks known up front, with nothing to start: no
// more threads start than there are chunks.
void for_each_chunk_in_order(std::size_t chunks, unsigned threads, const produce_chunk& produce,
                             const consume_chunk& consume);

// The threads to work on for --threads `asked`: `asked`, or one per CPU for
// 0 (one where the number of CPUs is unknown).
unsigned worker_count(unsigned asked) noexcept;

}  // namespace sluice_tools
