// Writes a small binary patch file, the kind a delta or archive tool makes:
// a header of fixed-width little-endian fields, then one record per edit
// (a kind byte, varints, and for an insertion a blob of literal bytes), then
// a trailer. The same file is written two ways, side by side: with
// sluice::writer's binary calls, and with stdio's fwrite as such tools are
// usually written. Both must give the same bytes (the examples' test checks).
//
//   sluice-example-patch [--stdio] [path]     (default: patch.bin, sluice)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sluice/sluice.hpp>
#include <span>
#include <string>
#include <system_error>
#include <vector>

namespace {

// One edit: copy `length` bytes from `offset` of the old file, or insert
// `literal`.
struct edit {
  std::uint64_t offset = 0;
  std::uint32_t length = 0;
  std::vector<unsigned char> literal;  // empty for a copy
};

constexpr char magic[4] = {'S', 'P', 'C', 'H'};
constexpr std::uint16_t version = 1;

// A deterministic list of edits, as a diff of two large files might give.
std::vector<edit> make_edits(std::size_t count) {
  std::vector<edit> edits(count);
  std::uint64_t state = 0x9e3779b97f4a7c15u;
  auto next = [&state] {
    state = state * 6364136223846793005u + 1442695040888963407u;
    return static_cast<std::uint32_t>(state >> 33);
  };
  for (edit& e : edits) {
    if (next() % 4 == 0) {
      e.literal.resize(1 + next() % 64);
      for (unsigned char& b : e.literal) b = static_cast<unsigned char>(next());
    } else {
      e.offset = next() * std::uint64_t{1021};
      e.length = next() % 100000;
    }
  }
  return edits;
}

std::uint64_t new_size(const std::vector<edit>& edits) {
  std::uint64_t size = 0;
  for (const edit& e : edits) size += e.literal.empty() ? e.length : e.literal.size();
  return size;
}

// --- with sluice ----------------------------------------------------------

// LEB128: seven bits a byte, the high bit set on all but the last.
void put_varint(sluice::writer& out, std::uint64_t value) {
  while (value >= 0x80) {
    out.put(static_cast<unsigned char>(value | 0x80));
    value >>= 7;
  }
  out.put(static_cast<unsigned char>(value));
}

void write_with_sluice(const char* path, const std::vector<edit>& edits) {
  sluice::writer out(path);
  out.write(magic, sizeof magic);
  out.put_le(version);
  out.put_le(std::uint16_t{0});  // flags
  out.put_le(new_size(edits));
  put_varint(out, edits.size());
  for (const edit& e : edits) {
    if (e.literal.empty()) {
      out.put(std::byte{'C'});
      put_varint(out, e.offset);
      put_varint(out, e.length);
    } else {
      out.put(std::byte{'I'});
      put_varint(out, e.literal.size());
      out.write(std::span(e.literal));
    }
  }
  out.put_be(std::uint32_t{0x454e4421});  // "END!"
  out.close();                            // throws if any byte could not be written
}

// --- with stdio -------------------------------------------------------------

// fwrite throws nothing: each call's count is checked, and the first
// failure ends the program with errno's message.
void fwrite_or_die(const void* data, std::size_t size, std::FILE* f) {
  if (std::fwrite(data, 1, size, f) != size) {
    std::perror("fwrite");
    std::exit(1);
  }
}

void fwrite_le(std::uint64_t value, std::size_t width, std::FILE* f) {
  unsigned char bytes[8];
  for (std::size_t i = 0; i < width; ++i) bytes[i] = static_cast<unsigned char>(value >> (8 * i));
  fwrite_or_die(bytes, width, f);
}

void fwrite_varint(std::uint64_t value, std::FILE* f) {
  unsigned char bytes[10];
  std::size_t n = 0;
  while (value >= 0x80) {
    bytes[n++] = static_cast<unsigned char>(value | 0x80);
    value >>= 7;
  }
  bytes[n++] = static_cast<unsigned char>(value);
  fwrite_or_die(bytes, n, f);
}

void write_with_stdio(const char* path, const std::vector<edit>& edits) {
  std::FILE* f = std::fopen(path, "wb");
  if (!f) {
    std::perror(path);
    std::exit(1);
  }
  fwrite_or_die(magic, sizeof magic, f);
  fwrite_le(version, 2, f);
  fwrite_le(0, 2, f);
  fwrite_le(new_size(edits), 8, f);
  fwrite_varint(edits.size(), f);
  for (const edit& e : edits) {
    if (e.literal.empty()) {
      fwrite_or_die("C", 1, f);
      fwrite_varint(e.offset, f);
      fwrite_varint(e.length, f);
    } else {
      fwrite_or_die("I", 1, f);
      fwrite_varint(e.literal.size(), f);
      fwrite_or_die(e.literal.data(), e.literal.size(), f);
    }
  }
  fwrite_or_die("END!", 4, f);
  if (std::fclose(f) != 0) {
    std::perror(path);
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool stdio = argc > 1 && std::strcmp(argv[1], "--stdio") == 0;
  const char* path = argc > 1 + stdio ? argv[1 + stdio] : "patch.bin";
  std::vector<edit> edits = make_edits(100'000);
  if (stdio) {
    write_with_stdio(path, edits);
    return 0;
  }
  try {
    write_with_sluice(path, edits);
  } catch (const std::system_error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
