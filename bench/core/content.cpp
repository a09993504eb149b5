#include "core/content.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include "core/io.hpp"

namespace sluice::bench {
namespace {

constexpr std::size_t line_length = 64;

char pattern_at(std::size_t i) {
  std::size_t line = i / line_length, column = i % line_length;
  if (column == line_length - 1) return '\n';
  return static_cast<char>('!' + (line + column) % 94);  // '!'..'~'
}

}  // namespace

const char* pattern() {
  static const auto period = [] {
    std::array<char, pattern_period> bytes;
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = pattern_at(i);
    return bytes;
  }();
  return period.data();
}

std::vector<char> pattern_bytes(std::size_t size) {
  std::vector<char> bytes(size);
  const char* period = pattern();
  for (std::size_t i = 0; i < size; ++i) bytes[i] = period[i % pattern_period];
  return bytes;
}

input_maker random_input(std::uint64_t size) {
  return make_input_maker([size](const char* path) {
    constexpr std::size_t chunk_size = 1024 * 1024;  // a whole number of words
    std::vector<char> chunk(chunk_size);
    random_stream numbers(1);
    raw_file out(path);
    for (std::uint64_t done = 0; done < size; done += chunk_size) {
      for (std::size_t at = 0; at < chunk_size; at += sizeof(std::uint64_t)) {
        std::uint64_t word = numbers.next();
        std::memcpy(chunk.data() + at, &word, sizeof word);
      }
      out.write_all(chunk.data(),
                    static_cast<std::size_t>(std::min<std::uint64_t>(chunk_size, size - done)));
    }
    out.finish(false);
  });
}

}  // namespace sluice::bench
