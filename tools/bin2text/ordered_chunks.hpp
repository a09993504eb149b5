// sluice-bin2text: chunks of work made on several threads, consumed in order.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

namespace bin2text {

// A growable byte block a producer fills and the consumer reads.
struct block {
  std::unique_ptr<char[]> bytes;
  std::size_t capacity = 0;
  std::size_t size = 0;

  // Room for at least n bytes from the start (the contents are not kept).
  char* room(std::size_t n);
};

using produce_chunk = std::function<void(std::size_t chunk, block& out)>;
using consume_chunk = std::function<void(std::size_t chunk, const block& text)>;

// Calls produce(k, block) for every k in [0, chunks) on `threads` worker
// threads, and consume(k, block) on the calling thread for k = 0, 1, ... in
// order, each as soon as its block is made. At most 2 * threads blocks exist
// at once, each reused: memory is bounded whatever `chunks` is. No more
// threads start than there are chunks. An exception from produce is rethrown
// here when its chunk's turn comes (the chunks before it are consumed first);
// one from consume is rethrown at once. Either way no chunk is started once
// the failure is known (those under way finish), and the workers are joined
// before this returns or throws.
void for_each_chunk_in_order(std::size_t chunks, unsigned threads, const produce_chunk& produce,
                             const consume_chunk& consume);

}  // namespace bin2text
