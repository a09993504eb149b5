// Helpers the journal tests share.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <sluice/journal.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "test_support.hpp"

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

// The segment files of `dir`, sorted by name.
inline std::vector<std::filesystem::path> segment_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".journal") out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace sluice_test
