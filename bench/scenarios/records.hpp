// sluice-bench: the binary record of the convert, bin2text and text2bin scenarios,
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

// The record in the schema language of sluice-bin2text and sluice-text2bin.
inline constexpr const char* record_schema = "id:i32,ts:i64,x:f32,y:f64,flags:u16";

// The record packed at `at`.
inline record decode_record(const unsigned char* at) {
  auto load = [at](std::size_t offset, auto value) {
    std::memcpy(&value, at + offset, sizeof value);
    return value;
  };
  return {load(0, std::int32_t{}), load(4, std::int64_t{}), load(12, float{}), load(16, double{}),
          load(24, std::uint16_t{})};
}

// Record i of a varied run: x and y with odd numerators, so that none is an
// integer and none is tiny (fmt's "{}" and std::to_chars write them alike).
inline record varied_record(std::uint64_t i) {
  std::uint64_t h = (i + 1) * 0x9E3779B97F4A7C15u;
  return {static_cast<std::int32_t>(h >> 33), 1700000000000 + static_cast<std::int64_t>(i) * 37,
          static_cast<float>((h % 2000000) | 1) / 1024.0f - 1000.0f,
          static_cast<double>((h >> 20) % (1ull << 40) | 1) / (1 << 20) - 500000.0,
          static_cast<std::uint16_t>(h >> 48)};
}

// Stores `r` packed at `at` (record_size bytes); returns the end.
inline unsigned char* store_record(unsigned char* at, const record& r) {
  auto store = [&at](auto value) {
    std::memcpy(at, &value, sizeof value);
    at += sizeof value;
  };
  store(r.id);
  store(r.ts);
  store(r.x);
  store(r.y);
  store(r.flags);
  return at;
}

// Appends `r`, packed, to `bytes`.
inline void append_record(std::vector<unsigned char>& bytes, const record& r) {
  unsigned char raw[record_size];
  store_record(raw, r);
  bytes.insert(bytes.end(), raw, raw + record_size);
}

}  // namespace sluice::bench
