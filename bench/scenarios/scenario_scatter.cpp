// sluice-bench "scatter": a file read into many separate pieces of memory
// (the fields of records, the blocks of a cache), in three shapes: 16384 x
// 64 B, 1000 x 1 KiB and 10 x 100 KiB. A round reads the next set of pieces'
// bytes of the file, in order, into the pieces, which lie at scattered
// offsets of one buffer (a fixed shuffle of their slots); rounds follow one
// another up to --size. Each method returns a digest of the buffer after the
// last round and a mix of the first 8 bytes of every piece of every round,
// so that one that reads the wrong bytes, or into the wrong piece, computes
// another result. The input is pseudo-random bytes, written once for the three
// tables. Each method has buffers of its own, made with the case. sluice
// reads the rounds one after the other with one reader, a read_into each.

#include <algorithm>
#include <cstring>
#include <memory>
#include <sluice/reader.hpp>
#include <span>
#include <string>
#include <vector>

#include "core/content.hpp"
#include "core/io.hpp"
#include "core/page_buffer.hpp"
#include "core/units.hpp"
#include "scenarios/scenarios.hpp"
#include "scenarios/word_digest.hpp"

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

// A method's buffer the pieces are read into (and, for the limit, the one
// it reads a round into first), allocated and touched when the case is
// made, so that no run pays for its page faults; and the mix of what each
// round read.
class destination {
 public:
  destination(pieces set, bool staged)
      : set_(std::move(set)),
        bytes_(set_->round_bytes()),
        staging_(staged ? set_->round_bytes() : 0) {
    for (std::size_t i = 0; i < set_->count; ++i) {
      iov_.push_back({piece(i), set_->piece_size});
      spans_.push_back(std::as_writable_bytes(std::span(piece(i), set_->piece_size)));
    }
  }
  const piece_set& set() const { return *set_; }
  char* piece(std::size_t i) { return bytes_.data() + set_->slots[i] * set_->piece_size; }
  const std::vector<io_piece>& iov() const { return iov_; }
  const std::vector<std::span<std::byte>>& spans() const { return spans_; }
  page_buffer& staging() { return staging_; }

  // Calls read_round(in, offset) for each round, mixing in its pieces'
  // first 8 bytes after it (in the pieces' order, so that a piece read into
  // another's place changes it); returns the mix and the digest of the
  // buffer after the last round.
  template <class Input, class ReadRound>
  std::string read_rounds(Input& in, ReadRound&& read_round) {
    std::uint64_t mix = 0;
    for (std::uint64_t round = 0; round < set_->rounds; ++round) {
      read_round(in, round * set_->round_bytes());
      for (std::size_t i = 0; i < set_->count; ++i) {
        std::uint64_t word;
        std::memcpy(&word, piece(i), sizeof word);
        mix = (mix << 1 | mix >> 63) ^ word;
      }
    }
    word_digest last;
    last.add(bytes_.data(), bytes_.size());
    return "mix " + std::to_string(mix) + ", last round " + last.text();
  }

 private:
  pieces set_;
  page_buffer bytes_;
  page_buffer staging_;
  std::vector<io_piece> iov_;
  std::vector<std::span<std::byte>> spans_;
};
using buffers = std::shared_ptr<destination>;  // one method's

std::string read_pread_each(const target& t, const buffers& to) {
  const piece_set& set = to->set();
  raw_input input(t.input);
  return to->read_rounds(input, [&](raw_input& in, std::uint64_t offset) {
    for (std::size_t i = 0; i < set.count; ++i)
      in.read_exactly_at(to->piece(i), set.piece_size, offset + i * set.piece_size);
  });
}

std::string read_preadv(const target& t, const buffers& to) {
  raw_input input(t.input);
  return to->read_rounds(input, [&](raw_input& in, std::uint64_t offset) {
    in.readv_exactly_at(to->iov().data(), to->iov().size(), offset);
  });
}

// The limit: the round's bytes in one pread, then each piece copied out.
std::string read_and_copy(const target& t, const buffers& to) {
  const piece_set& set = to->set();
  page_buffer& staging = to->staging();
  raw_input input(t.input);
  return to->read_rounds(input, [&](raw_input& in, std::uint64_t offset) {
    in.read_exactly_at(staging.data(), staging.size(), offset);
    for (std::size_t i = 0; i < set.count; ++i)
      std::memcpy(to->piece(i), staging.data() + i * set.piece_size, set.piece_size);
  });
}

// sluice: a reader over the file, each round's pieces in one read_into
// (small pieces copied out of its buffer, large ones read straight into).
std::string read_sluice(const target& t, const buffers& to) {
  sluice::reader input(t.input, {.buffer_size = t.buffer_size});
  return to->read_rounds(input,
                         [&](sluice::reader& in, std::uint64_t) { in.read_into(to->spans()); });
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
  c.methods.push_back(bind_reader("pread per piece", role::peer, read_pread_each,
                                  std::make_shared<destination>(set, false)));
  // preadv is the limit too where it is the faster of the two raw ways
  // (pieces of 2 KiB and more; docs/performance.md#the-scatter-threshold).
  role preadv_role = piece_size >= 2048 ? role::limit : role::peer;
  add_vectored_row(c, bind_reader("preadv, IOV_MAX pieces a call", preadv_role, read_preadv,
                                  std::make_shared<destination>(set, false)));
  c.methods.push_back(bind_reader("one pread + a copy per piece", role::limit, read_and_copy,
                                  std::make_shared<destination>(set, true)));
  c.methods.push_back(bind_reader("sluice read_into", role::sluice, read_sluice,
                                  std::make_shared<destination>(set, false)));
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
