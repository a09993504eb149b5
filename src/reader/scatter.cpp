// sluice::reader::read_into: the next bytes scattered over many pieces of
// memory, small pieces copied out of the buffer, runs of large ones read
// straight into them with one preadv.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "sluice/reader.hpp"

namespace sluice {
namespace {

// A piece at least this large is read straight from the file (with the run
// of large pieces after it, in one preadv) once the buffer is empty; a
// smaller one is copied out of a refilled buffer. Below it, the kernel's
// cost per piece of a preadv is more than a copy of the piece costs.
// Measured: docs/performance.md#the-scatter-threshold.
constexpr std::size_t scatter_threshold = 2048;

std::uint64_t bytes_of(std::span<const std::span<std::byte>> pieces) noexcept {
  return std::accumulate(
      pieces.begin(), pieces.end(), std::uint64_t{0},
      [](std::uint64_t sum, std::span<std::byte> piece) { return sum + piece.size(); });
}

}  // namespace

void reader::read_into(std::span<const std::span<std::byte>> pieces) {
  const std::span<const std::span<std::byte>> all = pieces;
  const std::uint64_t start = tell();
  while (!pieces.empty()) {
    pieces = pieces.subspan(copy_buffered(pieces));
    if (pieces.empty()) break;
    std::span<std::byte> first = pieces.front();
    std::size_t filled = take_buffered(first);  // what is buffered, less than `first`
    std::size_t run = straight_run(pieces, filled);
    std::uint64_t wanted = first.size() - filled;
    std::uint64_t got = 0;
    if (run != 0) {
      wanted = bytes_of(pieces.first(run)) - filled;
      got = read_straight(pieces.first(run), filled);
    } else {
      got = copy_into(first.subspan(filled));
    }
    if (got < wanted) throw_end_of_file("read_into", tell() - start, bytes_of(all));
    pieces = pieces.subspan(std::max<std::size_t>(run, 1));
  }
}

// Copies the front pieces that are whole in the buffer out of it, in a
// loop with the position in a register: the count of them. Most pieces
// under the threshold go this way, one memcpy each.
std::size_t reader::copy_buffered(std::span<const std::span<std::byte>> pieces) noexcept {
  std::byte* pos = pos_;
  const std::byte* end = end_;
  std::size_t n = 0;
  for (; n < pieces.size() && pieces[n].size() <= static_cast<std::size_t>(end - pos); ++n) {
    if (!pieces[n].empty()) std::memcpy(pieces[n].data(), pos, pieces[n].size());
    pos += pieces[n].size();
  }
  pos_ = pos;
  return n;
}

// Copies `out` out of the buffer, refilling it (empty) as needed: the count,
// fewer only at the end of the file.
std::size_t reader::copy_into(std::span<std::byte> out) {
  std::size_t done = 0;
  while (done < out.size()) {
    std::size_t got = refill_into(out.subspan(done));
    if (got == 0) break;
    done += got;
  }
  return done;
}

// How many of the front `pieces` (the first with `filled` bytes in it
// already) to read straight from the file: the run of them that are large
// enough (empty ones do not end it), none on a file that is not read at
// offsets, nor with direct.
std::size_t reader::straight_run(std::span<const std::span<std::byte>> pieces,
                                 std::size_t filled) const noexcept {
  if (!seekable_ || options_.caching == caching_mode::direct) return 0;
  if (pieces.front().size() - filled < scatter_threshold) return 0;
  auto small = std::find_if(pieces.begin() + 1, pieces.end(), [](std::span<std::byte> piece) {
    return piece.size() != 0 && piece.size() < scatter_threshold;
  });
  return static_cast<std::size_t>(small - pieces.begin());
}

// Reads `run` (its first `filled` bytes in already) from the position with
// one file::read_gather, the buffer empty: the count read, fewer only at the
// end of the file; the position moves past it.
std::size_t reader::read_straight(std::span<const std::span<std::byte>> run, std::size_t filled) {
  std::vector<std::span<std::byte>> rest;
  if (filled != 0) {
    rest.assign(run.begin(), run.end());
    rest.front() = rest.front().subspan(filled);
    run = rest;
  }
  std::uint64_t at = tell();
  std::size_t got = source_.read_gather(run, at);
  if (got < bytes_of(run) && at + got < size_at_open_) throw_shrank(at + got);
  restart_at(at + got);
  if (options_.caching == caching_mode::no_cache) drop_behind();
  return got;
}

}  // namespace sluice
