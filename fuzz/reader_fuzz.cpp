// libFuzzer target: arbitrary bytes as a file read line by line with
// sluice::reader, checked against a simple model (find '\n', drop a '\r'
// before it with line_end::crlf). Every line must come back as the model
// says, a line longer than max_line must throw line_too_long naming its
// number and offset, after which skip_line() must land after its newline;
// a crash, an out-of-bounds read or any other answer traps.
//
// The same file is then read as fields of numbers with read_number<T>
// (int64 or double, byte 2's second bit), each field up to the ',' or line
// end the model finds there: each must give what parse<T> gives for the
// field's text, the same bits or the same refusal located at the field's
// line and offset, with nothing consumed (skip_line() then goes on); a
// field longer than max_line must throw line_too_long.
//
// Input: byte 0 picks the buffer size (2^(byte0 % 20) plus a few bytes),
// byte 1 max_line (0 to 2^(byte1 % 16)), byte 2's low bit the line end; the rest
// is the file.
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sluice/sluice.hpp>
#include <string>
#include <string_view>
#include <type_traits>

#include "same_bits.hpp"

namespace {

using sluice_fuzz::same_bits;

const std::filesystem::path& work_file() {
  static const std::filesystem::path path = [] {
    auto base = std::filesystem::exists("/dev/shm") ? std::filesystem::path("/dev/shm")
                                                    : std::filesystem::temp_directory_path();
    return base / ("sluice-fuzz-reader-" + std::to_string(::getpid()));
  }();
  return path;
}

void check(bool condition) {
  if (!condition) std::abort();
}

// Reads `content` from `path` with `options`, line by line, against the model.
void read_against_model(const std::filesystem::path& path, std::string_view content,
                        const sluice::reader_options& options) {
  sluice::reader in(path, options);
  std::size_t pos = 0;
  std::uint64_t lines = 0;
  while (pos < content.size()) {
    std::size_t newline = content.find('\n', pos);
    std::size_t end = newline == std::string_view::npos ? content.size() : newline;
    std::size_t length = end - pos;
    if (options.line_ending == sluice::line_end::crlf && newline != std::string_view::npos &&
        length != 0 && content[end - 1] == '\r')
      --length;
    std::size_t next = newline == std::string_view::npos ? content.size() : newline + 1;
    if (length > options.max_line) {
      try {
        (void)in.read_line();
        check(false);
      } catch (const sluice::line_too_long& e) {
        check(e.line() == lines + 1 && e.offset() == pos);
      }
      check(in.skip_line() == next - pos);
    } else {
      auto line = in.read_line();
      check(line && *line == content.substr(pos, length));
    }
    ++lines;
    pos = next;
    check(in.tell() == pos && in.line_count() == lines);
  }
  check(!in.read_line() && in.eof());
}

// What read_number<T> or parse<T> made of a field: its value, or the
// message of its refusal.
template <class T>
struct outcome {
  T value{};
  std::string refusal;
};

// Reads `content` from `path` with `options` as fields of numbers, against
// parse<T> of each field's text.
template <class T>
void numbers_against_model(const std::filesystem::path& path, std::string_view content,
                           const sluice::reader_options& options) {
  sluice::reader in(path, options);
  std::size_t pos = 0;
  std::uint64_t line = 1;
  while (pos < content.size()) {
    std::size_t end = std::min(content.find_first_of(",\n", pos), content.size());
    bool ends_line = end == content.size() || content[end] == '\n';
    std::string_view field = content.substr(pos, end - pos);
    if (end != content.size() && ends_line && options.line_ending == sluice::line_end::crlf &&
        field.ends_with('\r'))
      field.remove_suffix(1);
    std::size_t line_end = std::min(content.find('\n', pos), content.size());
    bool refused = true;
    if (field.size() > options.max_line) {
      try {
        (void)in.read_number<T>(ends_line ? '\n' : ',');
        check(false);
      } catch (const sluice::line_too_long& e) {
        check(e.line() == line && e.offset() == pos);
      }
    } else {
      outcome<T> expected, got;
      try {
        expected.value = sluice::parse<T>(field);
        refused = false;
      } catch (const sluice::parse_error& e) {
        expected.refusal = e.located(path.native(), line, pos).what();
      }
      try {
        got.value = in.read_number<T>(ends_line ? '\n' : ',');
      } catch (const sluice::parse_error& e) {
        got.refusal = e.what();
      }
      check(got.refusal == expected.refusal);
      check(refused || same_bits(got.value, expected.value));
    }
    if (refused) {
      check(in.tell() == pos);
      in.skip_line();
      end = line_end;
      ends_line = true;
    }
    pos = std::min(end + 1, content.size());
    if (ends_line) ++line;
    check(in.tell() == pos && in.line_count() == line - 1);
  }
  check(in.eof());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  sluice::reader_options options;
  options.buffer_size = (std::size_t{1} << (data[0] % 20)) + data[0] / 20;
  options.max_line = (std::size_t{1} << (data[1] % 16)) - 1 + data[1] / 16 % 2;
  options.line_ending = data[2] & 1 ? sluice::line_end::crlf : sluice::line_end::lf;
  std::string_view content(reinterpret_cast<const char*>(data + 3), size - 3);
  {
    std::ofstream out(work_file(), std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
  }
  read_against_model(work_file(), content, options);
  if (data[2] & 2)
    numbers_against_model<double>(work_file(), content, options);
  else
    numbers_against_model<std::int64_t>(work_file(), content, options);
  std::filesystem::remove(work_file());
  return 0;
}
