// libFuzzer target: arbitrary bytes as the segment files of a journal
// directory, then recovery and a full read. Any std::system_error from that
// first open is a fine answer to bad input; a crash, a hang, an
// out-of-bounds read or any other exception is a bug. A journal that did
// open is then written on (records appended, old segments truncated into a
// spare, a rotation into it), closed and reopened: it must read back exactly
// what it held before closing, or the target traps. Before all that, a
// read-only open of the same bytes must leave every file as it was.
//
// Input: byte 0 picks the recovery mode, byte 1 the number of segments (1 to
// 3), then each segment but the last is a 2-byte little-endian length and
// that many bytes; the last segment is the rest. Segment i is written as
// segment number (first + i), where `first` comes from byte 1 too.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sluice/sluice.hpp>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "segment_input.hpp"

namespace {

volatile unsigned sink;  // keeps the reads of every record byte

const std::filesystem::path& work_dir() {
  static const std::filesystem::path dir = [] {
    auto base = std::filesystem::exists("/dev/shm") ? std::filesystem::path("/dev/shm")
                                                    : std::filesystem::temp_directory_path();
    return base / ("sluice-fuzz-" + std::to_string(::getpid()));
  }();
  return dir;
}

void write_file(const std::filesystem::path& path, std::span<const std::byte> bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

using records = std::vector<std::pair<std::uint64_t, std::string>>;

// Every record of `log` from its first on; reads every byte, for the
// sanitizers to check.
records read_all(sluice::journal& log) {
  records out;
  for (const auto& record : log.read_from(log.first_lsn()))
    out.emplace_back(record.lsn, std::string(reinterpret_cast<const char*>(record.data.data()),
                                             record.data.size()));
  return out;
}

// Every file of `dir` and its bytes.
std::map<std::string, std::string> snapshot(const std::filesystem::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    files[entry.path().filename()] = {std::istreambuf_iterator<char>(in), {}};
  }
  return files;
}

// Opens `dir` read-only and reads it all: whatever the bytes, it may fail
// with a std::system_error but must change nothing on disk.
void read_only_changes_nothing(const std::filesystem::path& dir, sluice::journal_options options) {
  auto before = snapshot(dir);
  options.read_only = true;
  try {
    auto log = sluice::journal::open(dir, options);
    sink = static_cast<unsigned>(read_all(log).size());
  } catch (const std::system_error&) {
  }
  if (snapshot(dir) != before) __builtin_trap();
}

// Writes on in a journal that opened: a record, a truncation that keeps the
// spare, enough to rotate into it. Returns what the journal then holds.
records write_on(sluice::journal& log) {
  std::string text(1500, 'w');
  log.write(std::as_bytes(std::span(text)));
  log.truncate_before(log.next_lsn());
  for (int i = 0; i < 4; ++i) log.write(std::as_bytes(std::span(text)));
  return read_all(log);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto input = sluice_fuzz::split_input({reinterpret_cast<const std::byte*>(data), size});
  if (!input) return 0;
  const auto& dir = work_dir();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (std::size_t i = 0; i < input->segments.size(); ++i)
    write_file(dir / sluice_fuzz::segment_file_name(input->first_number + i), input->segments[i]);
  sluice::journal_options options{
      .segment_size = 4096, .recovery = input->mode, .reuse_segments = true};
  read_only_changes_nothing(dir, options);
  sluice::journal log;
  try {
    log = sluice::journal::open(dir, options);
    sink = static_cast<unsigned>(read_all(log).size());
  } catch (const std::system_error&) {
    return 0;  // refusing bad input is the expected answer
  }
  records held = write_on(log);
  log.close();
  auto again = sluice::journal::open(dir, options);
  if (read_all(again) != held) __builtin_trap();
  return 0;
}
