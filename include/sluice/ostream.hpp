// sluice/ostream.hpp - sluice::ostream, a std::ostream that writes through a
// sluice::writer.
//
// Existing operator<< code works unchanged, and faster than through
// std::ofstream: the stream's put area *is* the writer's buffer (characters
// are inserted straight into it, no second copy), a large insertion that does
// not fit goes out as the writer's write() does (gathered, without a copy),
// and tellp() is O(1): the writer's tell() plus what sits in the put area,
// no system call, no flush. The bytes are those std::ofstream would write for
// the same insertions and flags (precision, width, fill, base, showpos,
// boolalpha, fixed, scientific...): formatting is the standard library's.
//
// std::flush and std::endl hand the buffered bytes to the OS (writer::flush),
// as they do for std::ofstream; write '\n' rather than std::endl where no
// flush is wanted.
//
// Errors: a failing write sets badbit (or throws, if exceptions() asks for
// it), as for any stream; the writer's error sticks, and close() throws it as
// a std::system_error naming the operation, path and offset, like
// writer::close(). The destructor closes without throwing and reports a
// failure through the error handler (<sluice/error.hpp>): one it met
// itself, and one that only set badbit (exceptions() did not rethrow it);
// not one close() or an insertion already threw. Not movable or copyable;
// one thread at a time.
//
// Example:
//   sluice::ostream out("table.txt", {.buffer_size = 1 << 20});
//   out << std::fixed << std::setprecision(2);
//   for (const auto& row : rows) out << row.name << ' ' << row.price << '\n';
//   out.close();  // throws if any byte could not be written
#pragma once

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <streambuf>

#include "sluice/writer.hpp"

namespace sluice {
namespace detail {

// A streambuf whose put area is the free part of a writer's buffer, from
// reserve(); what was put is commit()ted whenever the writer must act.
class writer_streambuf : public std::streambuf {
 public:
  explicit writer_streambuf(writer& target) noexcept : target_(&target) {}
  // Commits what the put area holds and empties it; the writer is then
  // up to date. Never throws.
  void settle() noexcept;
  // Characters in the put area, not yet committed to the writer.
  std::size_t pending() const noexcept { return static_cast<std::size_t>(pptr() - pbase()); }

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* text, std::streamsize size) override;
  int sync() override;
  pos_type seekoff(off_type offset, std::ios_base::seekdir dir,
                   std::ios_base::openmode which) override;

 private:
  void open_area(std::size_t at_least);
  writer* target_;
};

}  // namespace detail

class ostream : public std::ostream {
 public:
  // Opens `path` as writer(path, options) does; throws std::system_error if
  // it cannot be opened.
  explicit ostream(const std::filesystem::path& path, writer_options options = {});
  // Writes through an already open file, from its position.
  explicit ostream(file&& target, writer_options options = {});
  ostream(const ostream&) = delete;
  ostream& operator=(const ostream&) = delete;
  // Closes as writer's destructor does: never throws.
  ~ostream() override;

  // Flushes, closes and makes the file as durable as the options asked, as
  // writer::close(); throws its first error (and sets badbit). The stream
  // accepts nothing afterwards (an insertion sets badbit).
  void close();

  // Bytes inserted so far; the same as tellp() without the stream's state
  // checks. O(1), no system call.
  std::uint64_t tell() const noexcept;

 private:
  void mark_bad() noexcept;
  writer writer_;
  detail::writer_streambuf buffer_{writer_};
};

}  // namespace sluice
