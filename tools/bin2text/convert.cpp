#include "bin2text/convert.hpp"

#include <algorithm>
#include <cstdint>
#include <sluice/writer.hpp>
#include <string_view>

#include "bin2text/input.hpp"
#include "bin2text/record_text.hpp"
#include "common/ordered_chunks.hpp"
#include "common/output.hpp"
#include "common/progress_line.hpp"

namespace bin2text {
namespace {

using sluice_tools::block;
using sluice_tools::consume_chunk;
using sluice_tools::for_each_chunk_in_order;
using sluice_tools::format;

// A chunk's block (its input and the room its text may need): small enough
// that every thread has several in a modest file and memory stays a few
// blocks per thread, large enough that handing one over costs nothing next
// to making it.
constexpr std::size_t block_bytes = 4 * 1024 * 1024;

// A chunk's block: the room its text may need, then its input records; one
// allocation serves both.
struct chunk_layout {
  std::size_t record;     // bytes per record
  std::size_t text_max;   // the most text a record makes
  std::size_t per_chunk;  // records per chunk

  char* text(block& made) const { return made.room(per_chunk * (text_max + record)); }
  unsigned char* input(block& made) const {
    return reinterpret_cast<unsigned char*>(text(made) + per_chunk * text_max);
  }
};

// Formats the made.input records at the end of `made` into its start.
void format_chunk(const record_text& text, const chunk_layout& layout, block& made) {
  char* start = layout.text(made);
  const unsigned char* input = layout.input(made);
  std::size_t count = made.input / layout.record;
  char* end = start;
  for (std::size_t i = 0; i < count; ++i) end = text.write(end, input + i * layout.record);
  made.size = static_cast<std::size_t>(end - start);
}

void write_head(sluice::writer& out, const job& work) {
  if (work.format == format::xml)
    out.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<records>\n");
  if (work.format != format::csv) return;
  for (std::size_t i = 0; i < work.layout.fields.size(); ++i) {
    if (i != 0) out.put(',');
    out.write(work.layout.fields[i].name);
  }
  out.put('\n');
}

void write_tail(sluice::writer& out, const job& work) {
  if (work.format == format::xml) out.write("</records>\n");
}

// A stream's chunks: read one after another, formatted in parallel.
void stream_chunks(input& in, const record_text& text, const chunk_layout& layout, unsigned threads,
                   const consume_chunk& consume) {
  auto start = [&](std::size_t, block& made) {
    made.input = in.read_next(layout.input(made), layout.per_chunk) * layout.record;
    return made.input != 0;
  };
  auto produce = [&](std::size_t, block& made) { format_chunk(text, layout, made); };
  for_each_chunk_in_order(threads, start, produce, consume);
}

// A regular file's chunks: each read at its offset and formatted, in
// parallel.
void file_chunks(input& in, const record_text& text, const chunk_layout& layout, unsigned threads,
                 const consume_chunk& consume) {
  const std::uint64_t records = in.size() / layout.record;
  auto produce = [&](std::size_t chunk, block& made) {
    std::uint64_t first = chunk * layout.per_chunk;
    auto count =
        static_cast<std::size_t>(std::min<std::uint64_t>(layout.per_chunk, records - first));
    in.read_records(layout.input(made), first, count);
    made.input = count * layout.record;
    format_chunk(text, layout, made);
  };
  auto chunks = static_cast<std::size_t>((records + layout.per_chunk - 1) / layout.per_chunk);
  for_each_chunk_in_order(chunks, threads, produce, consume);
}

// Converts the input a chunk of whole records at a time, formatting on
// several threads; the text goes to `out` in input order, after the head,
// which is written with the first chunk's text (so that an input that
// cannot be read leaves nothing at all behind). Returns the number of
// chunks.
std::size_t convert_all(input& in, sluice::writer& out, const job& work) {
  const record_text text(work.layout, work.format, work.big_endian);
  const std::size_t record = work.layout.record_size;
  const chunk_layout layout{record, text.max_size(),
                            std::max<std::size_t>(1, block_bytes / (text.max_size() + record))};
  sluice_tools::progress_line progress("sluice-bin2text", work.progress && !in.streamed(),
                                       in.size());
  std::size_t consumed = 0;
  auto consume = [&](std::size_t chunk, const block& made) {
    if (chunk == 0) write_head(out, work);
    out.write(std::string_view(made.bytes.get(), made.size));
    // Not in.size(): a stream's is counted by the worker reading it.
    progress.show((chunk + 1) * layout.per_chunk * record);
    consumed = chunk + 1;
  };
  unsigned threads = sluice_tools::worker_count(work.threads);
  (in.streamed() ? stream_chunks : file_chunks)(in, text, layout, threads, consume);
  return consumed;
}

// Head, records, tail into `out`.
void convert_to(sluice::writer& out, input& in, const job& work) {
  if (convert_all(in, out, work) == 0) write_head(out, work);
  write_tail(out, work);
}

}  // namespace

void convert(const job& work, sluice::writer& out) {
  input in(work.input, work.layout.record_size);
  convert_to(out, in, work);
}

void run(const job& work) {
  input in(work.input, work.layout.record_size);
  sluice_tools::write_output(work.output, [&](sluice::writer& out) { convert_to(out, in, work); });
}

}  // namespace bin2text
