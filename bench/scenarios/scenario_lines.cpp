// sluice-bench "lines": count a text file's lines and sum their lengths
// (newlines excluded), as a log processor's first pass does. The input is
// lines of 0 to 160 printable characters (80 on average), pseudo-random, the
// last one without a newline: every method must count it too. A method that
// splits or joins lines computes another result.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/content.hpp"
#include "core/io.hpp"
#include "core/units.hpp"
#include "peers/getline.hpp"
#include "peers/ifstream.hpp"
#include "peers/mapped_input.hpp"
#include "peers/stdio_input.hpp"
#include "scenarios/line_chunks.hpp"
#include "scenarios/scenarios.hpp"
#include "sluice/reader.hpp"

namespace sluice::bench {
namespace {

constexpr std::size_t longest_line = 160;

// What every method computes.
class line_count {
 public:
  void add(std::size_t length) {
    ++lines_;
    bytes_ += length;
  }
  std::string text() const {
    return std::to_string(lines_) + " lines, " + std::to_string(bytes_) + " bytes in them";
  }

 private:
  std::uint64_t lines_ = 0;
  std::uint64_t bytes_ = 0;
};

// The lines of `text`, each ending with '\n' but maybe the last, counted
// with one memchr per line.
void count_lines(std::string_view text, line_count& count) {
  const char* at = text.data();
  const char* end = at + text.size();
  while (at < end) {
    auto* newline = static_cast<const char*>(std::memchr(at, '\n', end - at));
    const char* line_end = newline ? newline : end;
    count.add(static_cast<std::size_t>(line_end - at));
    at = newline ? newline + 1 : end;
  }
}

std::string read_memchr(const target& t) {
  line_chunks in(t.input);
  line_count count;
  for (std::string_view lines; !(lines = in.next()).empty();) count_lines(lines, count);
  return count.text();
}

// The line getline(3) allocates and grows.
struct getline_buffer {
  char* data = nullptr;
  std::size_t capacity = 0;
  getline_buffer() = default;
  getline_buffer(const getline_buffer&) = delete;
  getline_buffer& operator=(const getline_buffer&) = delete;
  ~getline_buffer() { std::free(data); }
};

std::string read_getline3(const target& t) {
  stdio_input in(t.input);
  getline_buffer line;
  line_count count;
  for (std::ptrdiff_t n; (n = getline_call(&line.data, &line.capacity, in.get())) != -1;)
    count.add(static_cast<std::size_t>(n) - (line.data[n - 1] == '\n'));
  in.finish();
  return count.text();
}

std::string read_std_getline(const target& t, std::size_t buffer_size) {
  input_ifstream file(t.input, buffer_size);
  line_count count;
  for (std::string line; std::getline(file.get(), line);) count.add(line.size());
  file.finish();
  return count.text();
}

// fgets into a buffer made for the longest line; a longer one would come in
// pieces, which are joined.
std::string read_fgets(const target& t) {
  stdio_input in(t.input);
  char line[longest_line + 2];
  std::size_t pending = 0;  // a line's bytes before its last piece
  line_count count;
  while (std::fgets(line, sizeof line, in.get())) {
    std::size_t n = std::strlen(line);
    if (n > 0 && line[n - 1] == '\n') {
      count.add(pending + n - 1);
      pending = 0;
    } else {
      pending += n;
    }
  }
  if (pending > 0) count.add(pending);
  in.finish();
  return count.text();
}

std::string read_mmap_memchr(const target& t) {
  mapped_input in(t.input);
  line_count count;
  count_lines(in.bytes(), count);
  return count.text();
}

std::string read_sluice(const target& t) {
  sluice::reader in(t.input, {.buffer_size = t.buffer_size});
  line_count count;
  for (std::string_view line : in.lines()) count.add(line.size());
  in.close();
  return count.text();
}

// `size` bytes of lines, the last of what remains after the others and
// without a newline, written 1 MiB at a time.
input_maker text_input(std::uint64_t size) {
  return make_input_maker([size](const char* path) {
    random_stream numbers(2);
    std::string chunk;
    raw_file out(path);
    for (std::uint64_t written = 0; written < size;) {
      std::uint64_t left = size - written - chunk.size();
      bool last = left <= longest_line + 1;
      std::size_t length = last ? left : numbers.below(longest_line + 1);
      for (std::size_t i = 0; i < length; ++i) chunk += static_cast<char>('!' + numbers.below(94));
      if (!last) chunk += '\n';
      if (chunk.size() >= 1024 * 1024 || last) {
        out.write_all(chunk.data(), chunk.size());
        written += chunk.size();
        chunk.clear();
      }
    }
    out.finish(false);
  });
}

}  // namespace

std::vector<bench_case> make_lines(std::uint64_t size) {
  bench_case c{"lines",
               "lines: " + format_size(size) +
                   " of lines of 0 to 160 characters, counted and their lengths summed",
               size,
               {},
               {}};
  c.input = text_input(size);
  c.methods.push_back(bind_reader("read(2) 1 MiB + memchr", role::limit, read_memchr));
  if (getline_missing)
    add_not_run(c, "getline(3)", getline_missing);
  else
    c.methods.push_back(bind_reader("getline(3)", role::peer, read_getline3));
  c.methods.push_back(
      bind_reader("std::getline, std::ifstream", role::peer, read_std_getline, std::size_t{0}));
  c.methods.push_back(bind_reader("std::getline, std::ifstream with a 1 MiB buffer", role::peer,
                                  read_std_getline, std::size_t{1024 * 1024}));
  c.methods.push_back(bind_reader("fgets", role::peer, read_fgets));
  c.methods.push_back(
      bind_reader(std::string(mapping_name) + " + memchr", role::peer, read_mmap_memchr));
  c.methods.push_back(bind_reader("sluice reader::lines()", role::sluice, read_sluice));
  return {std::move(c)};
}

}  // namespace sluice::bench
