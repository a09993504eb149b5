// sluice-bench: the binary record of the convert and bin2text scenarios,
// id:i32, ts:i64, x:f32, y:f64, flags:u16, packed and little-endian (as the
// machines sluice-bench runs on), 26 bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace sluice::bench {

struct record {
  std::int32_t id;
  std::int64_t ts;
  float x;
  double y;
  std::uint16_t flags;
};

inline constexpr std::size_t record_size = 4 + 8 + 4 + 8 + 2;

// The record packed at `at`.
inline record decode_record(const unsigned char* at) {
  auto load = [at](std::size_t offset, auto value) {
    std::memcpy(&value, at + offset, sizeof value);
    return value;
  };
  return {load(0, std::int32_t{}), load(4, std::int64_t{}), load(12, float{}), load(16, double{}),
          load(24, std::uint16_t{})};
}

// Appends `r`, packed, to `bytes`.
inline void append_record(std::vector<unsigned char>& bytes, const record& r) {
  auto store = [&bytes](auto value) {
    unsigned char raw[sizeof value];
    std::memcpy(raw, &value, sizeof value);
    bytes.insert(bytes.end(), raw, raw + sizeof value);
  };
  store(r.id);
  store(r.ts);
  store(r.x);
  store(r.y);
  store(r.flags);
}

}  // namespace sluice::bench
