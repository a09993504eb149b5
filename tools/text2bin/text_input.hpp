// sluice-text2bin: where the text comes from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <sluice/file.hpp>
#include <string>

namespace text2bin {

// The text input, read in order from its start to its end: a file named by
// its path, standard input ("-", read from where its offset is, as cat
// does), or any stream (a pipe, a FIFO, a device).
class text_input {
 public:
  // Opens `path` ("-": standard input, which stays open). Throws
  // std::system_error naming it if it cannot be opened or examined.
  explicit text_input(const std::string& path);

  // The path, or "standard input": how messages name the input.
  const std::string& name() const noexcept { return name_; }
  // The size of a regular file named by its path (for the progress line);
  // nothing for a stream or standard input.
  std::optional<std::uint64_t> size() const noexcept { return size_; }

  // Reads the next bytes into [into, into + count): all `count` unless the
  // input ends first, then 0 from the call after on. One thread at a time.
  // Throws std::system_error naming the input and the offset.
  std::size_t read(char* into, std::size_t count);

 private:
  sluice::file source_;
  std::string name_;
  std::optional<std::uint64_t> size_;
  std::uint64_t offset_ = 0;  // bytes read so far
  bool ended_ = false;
};

}  // namespace text2bin
