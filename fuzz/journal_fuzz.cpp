// libFuzzer target: arbitrary bytes as the segment files of a journal
// directory, then recovery and a full read. Any std::system_error is a fine
// answer to bad input; a crash, a hang, an out-of-bounds read or any other
// exception is a bug.
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
#include <sluice/sluice.hpp>
#include <string>
#include <system_error>

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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto input = sluice_fuzz::split_input({reinterpret_cast<const std::byte*>(data), size});
  if (!input) return 0;
  const auto& dir = work_dir();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (std::size_t i = 0; i < input->segments.size(); ++i)
    write_file(dir / sluice_fuzz::segment_file_name(input->first_number + i), input->segments[i]);
  try {
    auto log = sluice::journal::open(dir, {.segment_size = 4096, .recovery = input->mode});
    unsigned sum = 0;  // reads every byte handed out, for the sanitizers to check
    for (const auto& record : log.read_from(log.first_lsn()))
      for (std::byte b : record.data) sum += std::to_integer<unsigned>(b);
    sink = sum;
    log.write(std::as_bytes(std::span("after", 5)));
    log.close();
  } catch (const std::system_error&) {
    // refusing bad input is the expected answer
  }
  return 0;
}
