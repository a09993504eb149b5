// The fuzz input format shared by the fuzz target and the seed maker.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <sluice/journal.hpp>
#include <span>
#include <string>
#include <vector>

namespace sluice_fuzz {

struct segment_input {
  sluice::recovery_mode mode;
  std::uint64_t first_number;
  std::vector<std::span<const std::byte>> segments;
};

inline std::string segment_file_name(std::uint64_t number) {
  char name[40];
  std::snprintf(name, sizeof name, "%016llx.journal", static_cast<unsigned long long>(number));
  return name;
}

inline std::optional<segment_input> split_input(std::span<const std::byte> bytes) {
  if (bytes.size() < 2) return std::nullopt;
  auto mode_byte = std::to_integer<unsigned>(bytes[0]) % 3;
  auto shape = std::to_integer<unsigned>(bytes[1]);
  segment_input input{static_cast<sluice::recovery_mode>(mode_byte), 1 + (shape >> 2) % 4, {}};
  std::size_t count = 1 + (shape & 3) % 3;
  bytes = bytes.subspan(2);
  for (std::size_t i = 0; i + 1 < count; ++i) {
    if (bytes.size() < 2) return std::nullopt;
    std::size_t length =
        std::to_integer<std::size_t>(bytes[0]) | (std::to_integer<std::size_t>(bytes[1]) << 8);
    bytes = bytes.subspan(2);
    if (length > bytes.size()) return std::nullopt;
    input.segments.push_back(bytes.first(length));
    bytes = bytes.subspan(length);
  }
  input.segments.push_back(bytes);
  return input;
}

}  // namespace sluice_fuzz
