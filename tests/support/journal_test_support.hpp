// Helpers the journal tests share.
#pragma once

#include <gtest/gtest.h>

#ifndef _WIN32
#include <unistd.h>
#endif

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sluice/journal.hpp>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "support/test_support.hpp"

namespace sluice_test {

struct read_record {
  std::uint64_t lsn;
  std::string data;
  bool operator==(const read_record&) const = default;
};

// Every record read_from(from) yields.
inline std::vector<read_record> read_records(sluice::journal& log, std::uint64_t from = 1) {
  std::vector<read_record> out;
  for (const auto& record : log.read_from(from))
    out.push_back({record.lsn, std::string(reinterpret_cast<const char*>(record.data.data()),
                                           record.data.size())});
  return out;
}

// The payload of record `i` in the tests' workloads: its size varies with i.
inline std::string payload(std::uint64_t i, std::size_t base = 40) {
  return pattern(base + (i * 37) % 300, i);
}

inline std::vector<read_record> expected_records(std::uint64_t first, std::uint64_t last) {
  std::vector<read_record> out;
  for (std::uint64_t i = first; i <= last; ++i) out.push_back({i, payload(i)});
  return out;
}

// Writes (appends and commits) records `first` to `last`, each payload(i).
inline void write_records(sluice::journal& log, std::uint64_t first, std::uint64_t last) {
  for (std::uint64_t i = first; i <= last; ++i) ASSERT_EQ(log.write(bytes_of(payload(i))), i);
}

// Overwrites `n` bytes of `path` at `offset` with `byte`.
inline void damage(const std::filesystem::path& path, std::uint64_t offset, std::size_t n,
                   char byte) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(static_cast<std::streamoff>(offset));
  std::string bytes(n, byte);
  f.write(bytes.data(), static_cast<std::streamsize>(n));
  ASSERT_TRUE(f.good());
}

inline std::string error_text(const std::optional<std::system_error>& e) {
  return e ? e->what() : "";
}

// The segment files of `dir`, sorted by name.
inline std::vector<std::filesystem::path> segment_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".journal") out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

// CRC32C bit by bit: slow, obviously right, independent of the library's.
inline std::uint32_t reference_crc32c(std::string_view bytes) {
  std::uint32_t crc = 0xFFFFFFFFu;
  for (char c : bytes) {
    crc ^= static_cast<unsigned char>(c);
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1) ? 0x82F63B78u : 0);
  }
  return ~crc;
}

// The `n`-byte little-endian integer at `at` of `bytes`.
inline std::uint64_t little_endian(std::string_view bytes, std::size_t at, std::size_t n) {
  std::uint64_t value = 0;
  for (std::size_t i = n; i-- > 0;)
    value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
  return value;
}

#ifndef _WIN32
// POSIX only. A child process: fork_child(body) runs body(write_end) in the child, which
// must not return (it ends with _exit), and gives the parent the child's pid
// and the read end of a pipe from it. pid is -1 if the pipe or fork failed.
struct child_process {
  pid_t pid;
  int from_child;
};
template <class Body>
child_process fork_child(Body body) {
  int fds[2];
  if (::pipe(fds) != 0) return {-1, -1};
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    body(fds[1]);
  }
  ::close(fds[1]);
  if (pid < 0) ::close(fds[0]);
  return {pid, pid < 0 ? -1 : fds[0]};
}
#endif  // _WIN32

}  // namespace sluice_test
