// sluice-bench "fragment": two files written in turns, 64 KiB to one, then
// 64 KiB to the other, as a program writing two outputs at once does. Left
// to itself the filesystem may lay the files out in many small extents;
// writer_options::preallocate reserves each file's size up front. The
// "after close" column counts the extents of both files.
#include <memory>
#include <span>
#include <vector>

#include "core/content.hpp"
#include "core/io.hpp"
#include "core/observe.hpp"
#include "core/units.hpp"
#include "scenarios/scenarios.hpp"

namespace sluice::bench {
namespace {

constexpr std::size_t piece_size = 64 * 1024;

struct two_files {
  std::vector<char> piece;  // both files are this piece again and again
  std::uint64_t size;       // of each file; the last piece may be shorter
};
using content = std::shared_ptr<const two_files>;

// Calls write(which, data, n) for the pieces of both files, in turns.
template <class Write>
void write_in_turns(const two_files& files, Write&& write) {
  for (std::uint64_t done = 0; done < files.size; done += piece_size) {
    auto n = static_cast<std::size_t>(std::min<std::uint64_t>(piece_size, files.size - done));
    write(0, files.piece.data(), n);
    write(1, files.piece.data(), n);
  }
}

void run_write(const target& t, const content& files) {
  raw_file out[2] = {raw_file(t.path), raw_file(t.companion)};
  write_in_turns(
      *files, [&](int which, const char* data, std::size_t n) { out[which].write_all(data, n); });
  out[0].finish(t.sync);
  out[1].finish(t.sync);
}

// Two writers whose buffers hold one piece, so that they too alternate
// between the files every 64 KiB.
void run_sluice(const target& t, const content& files, std::uint64_t preallocate) {
  writer_options options{.buffer_size = piece_size, .preallocate = preallocate};
  sluice::writer out[2] = {sluice::writer(t.path, options), sluice::writer(t.companion, options)};
  write_in_turns(*files, [&](int which, const char* data, std::size_t n) {
    out[which].write(std::as_bytes(std::span(data, n)));
  });
  finish(out[0], t);
  finish(out[1], t);
}

std::string extents_of_both(const target& t) { return extents_of({t.path, t.companion}); }

}  // namespace

std::vector<bench_case> make_fragment(std::uint64_t size) {
  auto files = std::make_shared<const two_files>(two_files{pattern_bytes(piece_size), size});
  bench_case c{
      "fragment", "fragment: two files of " + format_size(size) + " written in turns, 64 KiB each",
      size,       {},
      {},         2 * size};
  c.methods.push_back(observing(
      bind_method("write(2), 64 KiB in turns", role::limit, run_write, files), extents_of_both));
  c.methods.push_back(
      observing(bind_method(
                    "sluice writers, 64 KiB buffers", role::sluice,
                    [](const target& t, const content& f) { run_sluice(t, f, 0); }, files),
                extents_of_both));
  c.methods.push_back(
      observing(bind_method(
                    "sluice writers, + preallocate", role::sluice,
                    [](const target& t, const content& f) { run_sluice(t, f, f->size); }, files),
                extents_of_both));
  return {std::move(c)};
}

}  // namespace sluice::bench
