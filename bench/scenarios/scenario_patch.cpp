// sluice-bench "patch": the output of a binary delta tool. Each match of
// the new file in the old one is a record of three little-endian fields, a
// 1-byte literal length, a 2-byte copy length and a 4-byte copy offset,
// followed by that many literal bytes (1 to 64, in one record of four).
// The matches are made before the clock starts, as the tool has them when
// it writes (up to 16 MiB's worth, written again as often as --size asks); every method writes each
// field with its own library's call.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "core/content.hpp"
#include "core/io.hpp"
#include "core/units.hpp"
#include "peers/ofstream.hpp"
#include "peers/stdio_file.hpp"
#include "peers/stdio_unlocked.h"
#include "scenarios/scenarios.hpp"

namespace sluice::bench {
namespace {

// One match, and the literal bytes before it: pattern() from `literal_at`.
struct match {
  std::uint32_t offset;
  std::uint16_t length;
  std::uint8_t literal_size;  // 0: none
  std::uint8_t literal_at;    // in 8-byte steps into the pattern
};
static_assert(sizeof(match) == 8);

constexpr std::size_t fields_size = 1 + 2 + 4;
constexpr std::size_t max_literal = 64;

struct match_list {
  std::vector<match> matches;
  std::uint64_t bytes = 0;   // what they take written
  std::uint64_t rounds = 1;  // times they are written
};
using matches = std::shared_ptr<const match_list>;  // shared by the methods

// Deterministic matches that take `size` bytes written: a list of at most
// 16 MiB's worth, written `rounds` times (its last match may pass the mark).
matches make_matches(std::uint64_t size) {
  constexpr std::uint64_t most = 16 * 1024 * 1024;
  auto list = std::make_shared<match_list>();
  list->rounds = std::max<std::uint64_t>(1, size / most + (size % most != 0));
  const std::uint64_t round_size = size / list->rounds + (size % list->rounds != 0);
  std::uint64_t state = 0x9e3779b97f4a7c15u;
  auto next = [&state] {
    state = state * 6364136223846793005u + 1442695040888963407u;
    return static_cast<std::uint32_t>(state >> 32);
  };
  while (list->bytes < round_size) {
    std::uint32_t r = next();
    match m{next(), static_cast<std::uint16_t>(r), 0, static_cast<std::uint8_t>(r >> 16)};
    if ((r >> 24) % 4 == 0) m.literal_size = static_cast<std::uint8_t>(1 + (r >> 26) % max_literal);
    list->matches.push_back(m);
    list->bytes += fields_size + m.literal_size;
  }
  return list;
}

const char* literal_of(const match& m) {
  static_assert(256 * 8 + max_literal <= pattern_period);
  return pattern() + m.literal_at * std::size_t{8};
}

// The bytes of `value`'s low `n` bytes, least significant first, by shifts:
// how a portable C program spells a little-endian field for fwrite.
template <std::size_t n>
struct le_bytes {
  explicit le_bytes(std::uint32_t value) {
    for (std::size_t i = 0; i < n; ++i) bytes[i] = static_cast<unsigned char>(value >> (8 * i));
  }
  unsigned char bytes[n];
};

// Calls field(le_bytes) for each field and literal(data, size) for each
// literal, record by record. Inlined into every method.
template <class Field, class Literal>
void write_matches(const match_list& list, Field&& field, Literal&& literal) {
  for (std::uint64_t round = 0; round < list.rounds; ++round) {
    for (const match& m : list.matches) {
      field(le_bytes<1>(m.literal_size));
      field(le_bytes<2>(m.length));
      field(le_bytes<4>(m.offset));
      if (m.literal_size != 0) literal(literal_of(m), std::size_t{m.literal_size});
    }
  }
}

void run_fwrite(const target& t, const matches& list) {
  stdio_file out(t.path, 0);
  std::FILE* f = out.get();
  write_matches(
      *list, [f](const auto& field) { std::fwrite(field.bytes, 1, sizeof field.bytes, f); },
      [f](const char* data, std::size_t size) { std::fwrite(data, 1, size, f); });
  out.finish(t.sync);
}

void run_fwrite_unlocked(const target& t, const matches& list) {
  stdio_file out(t.path, big_buffer_size);
  std::FILE* f = out.get();
  write_matches(
      *list,
      [f](const auto& field) {
        SLUICE_BENCH_FWRITE_UNLOCKED(field.bytes, 1, sizeof field.bytes, f);
      },
      [f](const char* data, std::size_t size) { SLUICE_BENCH_FWRITE_UNLOCKED(data, 1, size, f); });
  out.finish(t.sync);
}

void run_ofstream_write(const target& t, const matches& list) {
  buffered_ofstream file(t.path);
  std::ofstream& out = file.get();
  write_matches(
      *list,
      [&out](const auto& field) {
        out.write(reinterpret_cast<const char*>(field.bytes), sizeof field.bytes);
      },
      [&out](const char* data, std::size_t size) {
        out.write(data, static_cast<std::streamsize>(size));
      });
  finish(out, t);
}

// The limit: a 256 KiB buffer filled by hand, one bounds check per field
// or literal, as the calls of the other methods, and a write(2) each time
// it fills.
class hand_buffer {
 public:
  explicit hand_buffer(const char* path)
      : out_(path), buffer_(std::make_unique_for_overwrite<char[]>(big_buffer_size)) {}
  void append(const void* data, std::size_t size) {
    if (size > static_cast<std::size_t>(end_ - pos_)) drain();
    std::memcpy(pos_, data, size);
    pos_ += size;
  }
  void finish(bool sync) {
    drain();
    out_.finish(sync);
  }

 private:
  void drain() {
    out_.write_all(buffer_.get(), static_cast<std::size_t>(pos_ - buffer_.get()));
    pos_ = buffer_.get();
  }
  raw_file out_;
  std::unique_ptr<char[]> buffer_;
  char* pos_ = buffer_.get();
  char* const end_ = buffer_.get() + big_buffer_size;
};

void run_hand_buffer(const target& t, const matches& list) {
  hand_buffer out(t.path);
  write_matches(
      *list, [&out](const auto& field) { out.append(field.bytes, sizeof field.bytes); },
      [&out](const char* data, std::size_t size) { out.append(data, size); });
  out.finish(t.sync);
}

// A port of the fwrite code that keeps its byte arrays: one put() a byte.
void run_sluice_puts(const target& t, const matches& list) {
  sluice::writer out = open_writer(t);
  write_matches(
      *list,
      [&out](const auto& field) {
        for (unsigned char b : field.bytes) out.put(b);
      },
      [&out](const char* data, std::size_t size) { out.write(data, size); });
  finish(out, t);
}

// The same with the endian calls: one put_le a field.
void run_sluice_put_le(const target& t, const matches& list) {
  sluice::writer out = open_writer(t);
  for (std::uint64_t round = 0; round < list->rounds; ++round) {
    for (const match& m : list->matches) {
      out.put_le(m.literal_size);
      out.put_le(m.length);
      out.put_le(m.offset);
      if (m.literal_size != 0) out.write(literal_of(m), m.literal_size);
    }
  }
  finish(out, t);
}

}  // namespace

std::vector<bench_case> make_patch(std::uint64_t size) {
  matches list = make_matches(size);
  bench_case c{"patch",
               "patch: " + format_size(list->bytes * list->rounds) + ", " +
                   std::to_string(list->matches.size() * list->rounds) +
                   " matches of 1-, 2- and 4-byte little-endian fields, a literal of 1-64 B in 4",
               list->bytes * list->rounds,
               {},
               {}};
  c.methods.push_back(bind_method("fwrite", role::peer, run_fwrite, list));
  c.methods.push_back(
      bind_method(std::string(SLUICE_BENCH_FWRITE_UNLOCKED_NAME) + ", 256 KiB setvbuf", role::peer,
                  run_fwrite_unlocked, list));
  c.methods.push_back(
      bind_method("std::ofstream::write, 256 KiB buffer", role::peer, run_ofstream_write, list));
  c.methods.push_back(bind_method("hand buffer + write(2)", role::limit, run_hand_buffer, list));
  c.methods.push_back(
      bind_method("sluice writer::put a byte", role::sluice, run_sluice_puts, list));
  c.methods.push_back(
      bind_method("sluice writer::put_le a field", role::sluice, run_sluice_put_le, list));
  return {std::move(c)};
}

}  // namespace sluice::bench
