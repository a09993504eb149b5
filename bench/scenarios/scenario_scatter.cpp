// sluice-bench "scatter": a file read into many separate pieces of memory
// (the fields of records, the blocks of a cache), in three shapes: 16384 x
// 64 B, 1000 x 1 KiB and 10 x 100 KiB. A round reads the next set of pieces'
// bytes of the file, in order, into the pieces, which lie at scattered
// offsets of one buffer (a fixed shuffle of their slots); rounds follow one
// another up to --size. Each method returns the buffer after the last round
// and a mix of the first 8 bytes of every piece of every round, so that one
// that reads the wrong bytes, or into the wrong piece, computes another
// result. The input is pseudo-random bytes, written once for the three
// tables.
#include <sys/uio.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/content.hpp"
#include "core/io.hpp"
#include "core/units.hpp"
#include "scenarios/scenarios.hpp"

namespace sluice::bench {
namespace {

struct piece_set {
  std::size_t count;
  std::size_t piece_size;
  std::vector<std::size_t> slots;  // piece i goes to slot slots[i] of the buffer
  std::uint64_t rounds;
  std::size_t round_bytes() const { return count * piece_size; }
};
using pieces = std::shared_ptr<const piece_set>;  // shared by the methods of a case

pieces make_pieces(std::size_t count, std::size_t piece_size, std::uint64_t size) {
  auto set = std::make_shared<piece_set>();
  set->count = count;
  set->piece_size = piece_size;
  for (std::size_t i = 0; i < count; ++i) set->slots.push_back(i);
  random_stream numbers(4);
  for (std::size_t i = count; i > 1; --i)
    std::swap(set->slots[i - 1], set->slots[numbers.below(i)]);
  set->rounds = std::max<std::uint64_t>(1, size / set->round_bytes());
  return set;
}

// The buffer the pieces are read into, and the mix of what each round read.
class destination {
 public:
  explicit destination(const piece_set& set) : set_(set), bytes_(set.round_bytes(), '\0') {
    for (std::size_t i = 0; i < set.count; ++i) iov_.push_back({piece(i), set.piece_size});
  }
  char* piece(std::size_t i) { return bytes_.data() + set_.slots[i] * set_.piece_size; }
  const std::vector<iovec>& iov() const { return iov_; }
  // After each round: its pieces' first 8 bytes, in order, into the mix.
  void mix_round() {
    for (std::size_t i = 0; i < set_.count; ++i) {
      std::uint64_t word;
      std::memcpy(&word, piece(i), sizeof word);
      mix_ = (mix_ << 1 | mix_ >> 63) ^ word;
    }
  }
  // The result: the mix, then the buffer.
  std::string result() && {
    std::string mix(reinterpret_cast<const char*>(&mix_), sizeof mix_);
    return mix + bytes_;
  }

 private:
  const piece_set& set_;
  std::string bytes_;
  std::vector<iovec> iov_;
  std::uint64_t mix_ = 0;
};

// Calls read_round(in, to, offset) for each round, then returns the result.
template <class ReadRound>
std::string read_rounds(const target& t, const piece_set& set, ReadRound&& read_round) {
  raw_input in(t.input);
  destination to(set);
  for (std::uint64_t round = 0; round < set.rounds; ++round) {
    read_round(in, to, round * set.round_bytes());
    to.mix_round();
  }
  return std::move(to).result();
}

std::string read_pread_each(const target& t, const pieces& set) {
  return read_rounds(t, *set, [&set](raw_input& in, destination& to, std::uint64_t offset) {
    for (std::size_t i = 0; i < set->count; ++i)
      in.read_exactly_at(to.piece(i), set->piece_size, offset + i * set->piece_size);
  });
}

std::string read_preadv(const target& t, const pieces& set) {
  return read_rounds(t, *set, [](raw_input& in, destination& to, std::uint64_t offset) {
    in.readv_exactly_at(to.iov().data(), to.iov().size(), offset);
  });
}

// The limit: the round's bytes in one pread, then each piece copied out.
std::string read_and_copy(const target& t, const pieces& set) {
  std::vector<char> staging(set->round_bytes());
  return read_rounds(t, *set, [&](raw_input& in, destination& to, std::uint64_t offset) {
    in.read_exactly_at(staging.data(), staging.size(), offset);
    for (std::size_t i = 0; i < set->count; ++i)
      std::memcpy(to.piece(i), staging.data() + i * set->piece_size, set->piece_size);
  });
}

bench_case make_case(std::size_t count, std::size_t piece_size, std::uint64_t size,
                     const input_maker& input) {
  pieces set = make_pieces(count, piece_size, size);
  std::uint64_t bytes = set->rounds * set->round_bytes();
  bench_case c{"scatter",
               "scatter: " + format_size(bytes) + " read as " + std::to_string(set->rounds) +
                   " rounds of " + std::to_string(count) + " pieces of " + format_size(piece_size),
               bytes,
               {},
               {}};
  c.input = input;
  c.methods.push_back(bind_reader("pread per piece", role::peer, read_pread_each, set));
  c.methods.push_back(bind_reader("preadv, IOV_MAX pieces a call", role::peer, read_preadv, set));
  c.methods.push_back(bind_reader("one pread + a copy per piece", role::limit, read_and_copy, set));
  return c;
}

}  // namespace

// The three shapes' rounds all fit in max(size, 1 MiB) bytes.
std::uint64_t scatter_input_size(std::uint64_t size) {
  return std::max<std::uint64_t>(size, 1024 * 1024);
}

std::vector<bench_case> make_scatter(std::uint64_t size) {
  input_maker input = random_input(scatter_input_size(size));
  std::vector<bench_case> cases;
  cases.push_back(make_case(16384, 64, size, input));
  cases.push_back(make_case(1000, 1024, size, input));
  cases.push_back(make_case(10, 100 * 1024, size, input));
  return cases;
}

}  // namespace sluice::bench
