#include "text2bin/convert.hpp"

#include <cstdint>
#include <memory>
#include <sluice/writer.hpp>
#include <span>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "common/ordered_chunks.hpp"
#include "common/output.hpp"
#include "common/progress_line.hpp"
#include "text2bin/parsers.hpp"
#include "text2bin/piece_cutter.hpp"
#include "text2bin/record_encoder.hpp"
#include "text2bin/text_error.hpp"
#include "text2bin/text_input.hpp"
#include "text2bin/text_position.hpp"

namespace text2bin {
namespace {

using sluice_tools::block;

// What a piece's start and its worker leave for the consumer. The chunks
// under way at once are consecutive and at most 2 * threads
// (ordered_chunks.hpp): chunk % (2 * threads) tells their states apart.
struct piece_state {
  bool last = false;
  line_marks lines;  // of its whole text
  std::vector<unsigned char> records;
};

// A conversion's parts, made before any output is.
struct conversion {
  const job& work;
  text_input in;
  record_encoder encoder;
  std::unique_ptr<format_parser> parser;

  explicit conversion(const job& w)
      : work(w), in(w.input), encoder(w.layout, w.big_endian), parser(make_parser(w, encoder)) {}
};

// Parses piece `state`'s text, in `made`, into its records.
void parse_piece(const format_parser& parser, const block& made, piece_state& state) {
  std::string_view text(made.bytes.get(), made.input);
  state.records.clear();
  try {
    parser.parse(text, state.last, state.records);
  } catch (const text_error& e) {
    throw located_error(e, text);
  }
  state.lines = marks_of(text, text.size());
}

// Cuts, parses on several threads, writes in order; a bad byte's error
// names it by line, column and offset.
void convert_all(conversion& c, sluice::writer& out) {
  const job& work = c.work;
  piece_cutter cutter(c.in, *c.parser, work.piece_bytes, work.max_record_bytes);
  line_counter lines;
  auto where = [&](const located_error& e) {
    return std::runtime_error("'" + c.in.name() + "' " + lines.where(e.marks()) + ": " + e.what());
  };
  try {
    std::string_view head = cutter.read_head();
    lines.pass(marks_of(head, head.size()));
    const unsigned threads = sluice_tools::worker_count(work.threads);
    std::vector<piece_state> states(2 * threads);
    auto state_of = [&](std::size_t chunk) -> piece_state& {
      return states[chunk % states.size()];
    };
    sluice_tools::progress_line progress("sluice-text2bin", work.progress && c.in.size(),
                                         c.in.size().value_or(0));
    std::uint64_t done = head.size();
    auto start = [&](std::size_t chunk, block& made) {
      return cutter.next(made, state_of(chunk).last);
    };
    auto produce = [&](std::size_t chunk, block& made) {
      parse_piece(*c.parser, made, state_of(chunk));
    };
    auto consume = [&](std::size_t chunk, const block&) {
      const piece_state& state = state_of(chunk);
      out.write(std::as_bytes(std::span(state.records)));
      lines.pass(state.lines);
      done += state.lines.at;
      progress.show(done);
    };
    sluice_tools::for_each_chunk_in_order(threads, start, produce, consume);
  } catch (const located_error& e) {
    throw where(e);
  }
}

}  // namespace

void convert(const job& work, sluice::writer& out) {
  conversion c(work);
  convert_all(c, out);
}

void run(const job& work) {
  conversion c(work);
  sluice_tools::write_output(work.output, [&](sluice::writer& out) { convert_all(c, out); });
}

}  // namespace text2bin
