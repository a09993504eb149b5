// sluice-bench: what the read and scatter scenarios compute of the bytes
// their methods read: cheap (one XOR per 8 bytes), and the same whatever
// the chunks they come in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace sluice::bench {

// The XOR of a stream's 8-byte words (the last one padded with zeros),
// lane by lane, and its byte count, fed in order in chunks of any size.
class word_digest {
 public:
  // Not inlined: every method runs this one copy of the loop, so that none
  // gains or loses by where the compiler happened to place its own copy.
  [[gnu::noinline]] void add(const char* data, std::size_t size) {
    for (; size > 0 && offset_ % 8 != 0; --size) add_byte(*data++);
    std::size_t whole = size / 8 * 8;
    std::uint64_t lanes = 0;  // a local: the bytes cannot alias it, so the loop vectorises
    for (std::size_t i = 0; i < whole; i += 8) {
      std::uint64_t word;
      std::memcpy(&word, data + i, 8);
      lanes ^= word;
    }
    lanes_ ^= lanes;
    offset_ += whole;
    data += whole;
    for (size -= whole; size > 0; --size) add_byte(*data++);
  }
  std::string text() const {
    return std::to_string(offset_) + " bytes, words XOR " + std::to_string(lanes_);
  }

 private:
  void add_byte(char byte) {
    lanes_ ^= std::uint64_t{static_cast<unsigned char>(byte)} << (8 * (offset_ % 8));
    ++offset_;
  }

  std::uint64_t offset_ = 0;
  std::uint64_t lanes_ = 0;
};

}  // namespace sluice::bench
