// sluice-bench: an input read with read(2), 1 MiB at a time, and handed out
// as runs of whole lines: the raw loop of the lines and numbers limits (and
// of the numbers peers that differ from the limit only in their parsing),
// and, split into lines by for_each_line, of text2bin's line converters.
// The incomplete line at a chunk's end is moved to the buffer's start and
// completed by the next read(2).
#pragma once

#include <cstddef>
#include <cstring>
#include <string_view>

#include "core/io.hpp"
#include "core/page_buffer.hpp"

namespace sluice::bench {

class line_chunks {
 public:
  explicit line_chunks(const char* path);  // throws std::system_error

  // The next run of whole lines, each ending with '\n' but the input's last
  // line, which may lack one; followed in memory by a '\0' (for strtod and
  // the like). Empty at the end of the input. Valid until the next call. A
  // line longer than the buffer grows it. Throws std::system_error.
  std::string_view next();

 private:
  raw_input in_;
  page_buffer buffer_;
  std::size_t start_ = 0;   // where the incomplete line begins
  std::size_t filled_ = 0;  // bytes in the buffer
  char under_nul_ = 0;      // the byte the '\0' after the last run covers
};

// Calls each_line(line) for every line of the file at `path`, without its
// '\n', in order: line_chunks' runs split with memchr. Throws what
// line_chunks or each_line throws.
template <class Each>
void for_each_line(const char* path, Each&& each_line) {
  line_chunks in(path);
  for (std::string_view lines; !(lines = in.next()).empty();) {
    const char* at = lines.data();
    const char* end = at + lines.size();
    while (at < end) {
      auto* found =
          static_cast<const char*>(std::memchr(at, '\n', static_cast<std::size_t>(end - at)));
      const char* line_end = found ? found : end;
      each_line(std::string_view(at, static_cast<std::size_t>(line_end - at)));
      at = line_end + 1;
    }
  }
}

}  // namespace sluice::bench
