// sluice-bin2text: where the records come from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <sluice/file.hpp>
#include <string>

namespace bin2text {

// The binary input, a whole number of records. A regular file named by its
// path is read in parallel, each chunk of records at its own offset (pread),
// its size known and checked up front. Anything else that can be read is a
// stream: standard input ("-", read from where its offset is, as cat does),
// a pipe or FIFO (/dev/stdin, <(...)), a character or block device, a
// socket. A stream is read in order, one chunk after another, until its
// end, where a truncated last record shows.
class input {
 public:
  // Opens `path` ("-": standard input, which stays open) and finds out
  // which it is (one fstat). Throws std::system_error if it cannot be opened
  // or examined, std::runtime_error for a directory, or for a regular file
  // that is not a whole number of `record_size`-byte records (naming the
  // offset and length of the truncated record).
  input(const std::string& path, std::size_t record_size);

  // True for a stream, false for a regular file.
  bool streamed() const noexcept { return streamed_; }
  // A regular file's size; for a stream, the bytes read so far.
  std::uint64_t size() const noexcept { return size_; }

  // A regular file: reads records [first, first + count) into `into`.
  // Several threads may call it at once. Throws std::system_error, or
  // std::runtime_error if the file has shrunk.
  void read_records(unsigned char* into, std::uint64_t first, std::size_t count);

  // A stream: reads its next records, up to `count`, into `into`; returns
  // how many, fewer only at the end (0 once it is reached). One thread at a
  // time. Throws std::system_error, or std::runtime_error once the stream
  // has ended inside a record (naming its offset and length): the call that
  // finds that end still returns the whole records before it, and the next
  // one throws.
  std::size_t read_next(unsigned char* into, std::size_t count);

 private:
  sluice::file source_;
  std::string name_;  // in messages: the path, or "standard input"
  std::size_t record_;
  bool streamed_ = false;
  std::uint64_t size_ = 0;
  bool ended_ = false;  // a stream's end was read
};

}  // namespace bin2text
