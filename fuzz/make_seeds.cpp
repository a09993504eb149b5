// Writes the seed corpus of sluice-fuzz-journal: real journals (new, a few
// records, rotated and sealed, batches, a reused segment) in the fuzz input
// format. Usage: make_seeds <out-dir>. The seeds named v1-v2-* beside them
// were written the same way by a sluice of format versions 1 and 2, and are
// kept as they are: a newer sluice must still read them.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sluice/sluice.hpp>
#include <string>
#include <vector>

#include "segment_input.hpp"

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Packs the first up-to-three segments of `dir` as one fuzz input.
void pack(const fs::path& dir, unsigned mode, const fs::path& out) {
  std::vector<fs::path> segments;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".journal") segments.push_back(entry.path());
  std::sort(segments.begin(), segments.end());
  if (segments.size() > 3) segments.resize(3);
  unsigned first = static_cast<unsigned>(std::stoul(segments[0].stem().native(), nullptr, 16));
  std::string bytes;
  bytes += static_cast<char>(mode);
  bytes += static_cast<char>(((first - 1) << 2) | (segments.size() - 1));
  for (std::size_t i = 0; i < segments.size(); ++i) {
    std::string content = slurp(segments[i]);
    if (i + 1 < segments.size()) {
      bytes += static_cast<char>(content.size() & 0xFF);
      bytes += static_cast<char>(content.size() >> 8);
    }
    bytes += content;
  }
  std::ofstream(out, std::ios::binary) << bytes;
}

void write_records(sluice::journal& log, int count, std::size_t size) {
  for (int i = 0; i < count; ++i) {
    std::string text(size + static_cast<std::size_t>(i % 7), static_cast<char>('a' + i % 26));
    log.write(std::as_bytes(std::span(text.data(), text.size())));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_seeds <out-dir>\n";
    return 2;
  }
  fs::path out = argv[1];
  fs::create_directories(out);
  fs::path scratch = fs::temp_directory_path() / "sluice-fuzz-seeds";
  struct seed {
    const char* name;
    int records;
    std::size_t size;
  };
  const seed seeds[] = {{"empty", 0, 0}, {"few", 5, 20}, {"rotated", 60, 150}, {"big", 3, 3000}};
  unsigned mode = 0;
  for (const auto& s : seeds) {
    fs::remove_all(scratch);
    auto log = sluice::journal::open(scratch, {.segment_size = 4096});
    write_records(log, s.records, s.size);
    log.close();
    pack(scratch, mode++ % 3, out / s.name);
  }
  // Batches, one of them larger than a segment.
  fs::remove_all(scratch);
  {
    auto batches = sluice::journal::open(scratch, {.segment_size = 4096});
    std::string small(300, 's'), large(2000, 'l');
    std::span<const std::byte> pieces[] = {std::as_bytes(std::span(small)),
                                           std::as_bytes(std::span(large)),
                                           std::as_bytes(std::span(large))};
    for (int i = 0; i < 3; ++i) batches.commit(batches.append(std::span(pieces).first(i + 1)));
    batches.close();
  }
  pack(scratch, mode++ % 3, out / "batches");
  // A segment made from a spare: its earlier life's records follow its own.
  fs::remove_all(scratch);
  auto log = sluice::journal::open(scratch, {.segment_size = 4096, .reuse_segments = true});
  write_records(log, 60, 150);
  log.truncate_before(log.next_lsn());
  write_records(log, 30, 150);
  log.close();
  pack(scratch, mode % 3, out / "reused");
  fs::remove_all(scratch);
  return 0;
}
