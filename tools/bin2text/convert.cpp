#include "convert.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <sluice/file.hpp>
#include <sluice/writer.hpp>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "input.hpp"
#include "ordered_chunks.hpp"
#include "record_text.hpp"

namespace bin2text {
namespace {

// A chunk's block (its input and the room its text may need): small enough
// that every thread has several in a modest file and memory stays a few
// blocks per thread, large enough that handing one over costs nothing next
// to making it.
constexpr std::size_t block_bytes = 4 * 1024 * 1024;
constexpr std::uint64_t progress_from = 64 * 1024 * 1024;

// Names for standard output in -o: written as it goes, never replaced.
constexpr std::string_view stdout_names[] = {"", "-", "/dev/stdout", "/dev/fd/1",
                                             "/proc/self/fd/1"};

bool to_stdout(const job& work) {
  return std::find(std::begin(stdout_names), std::end(stdout_names), work.output) !=
         std::end(stdout_names);
}

// "sluice-bin2text:  42% of 1024 MiB" on stderr, redrawn when the percentage
// changes; a newline at the end. `done` is counted up to `total`.
class progress_line {
 public:
  progress_line(bool shown, std::uint64_t total) : shown_(shown), total_(total) {}

  void show(std::uint64_t done) {
    if (!shown_) return;
    done = std::min(done, total_);
    int percent = static_cast<int>(done * 100 / total_);
    if (percent == last_) return;
    last_ = percent;
    std::fprintf(stderr, "\rsluice-bin2text: %3d%% of %llu MiB", percent,
                 static_cast<unsigned long long>(total_ >> 20));
    if (done == total_) std::fputc('\n', stderr);
  }

 private:
  bool shown_;
  std::uint64_t total_;
  int last_ = -1;
};

// The number of threads to format on: `asked`, or one per CPU for 0.
unsigned formatting_threads(unsigned asked) {
  return asked != 0 ? asked : std::max(1u, std::thread::hardware_concurrency());
}

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
  progress_line progress(work.progress && !in.streamed() && in.size() >= progress_from, in.size());
  std::size_t consumed = 0;
  auto consume = [&](std::size_t chunk, const block& made) {
    if (chunk == 0) write_head(out, work);
    out.write(std::string_view(made.bytes.get(), made.size));
    // Not in.size(): a stream's is counted by the worker reading it.
    progress.show((chunk + 1) * layout.per_chunk * record);
    consumed = chunk + 1;
  };
  unsigned threads = formatting_threads(work.threads);
  (in.streamed() ? stream_chunks : file_chunks)(in, text, layout, threads, consume);
  return consumed;
}

// Head, records, tail into `out`.
void convert_to(sluice::writer& out, input& in, const job& work) {
  if (convert_all(in, out, work) == 0) write_head(out, work);
  write_tail(out, work);
}

}  // namespace

format parse_format(std::string_view name) {
  if (name == "xml") return format::xml;
  if (name == "csv") return format::csv;
  if (name == "jsonl") return format::jsonl;
  throw std::invalid_argument("unknown format '" + std::string(name) + "' (xml, csv or jsonl)");
}

void convert(const job& work, sluice::writer& out) {
  input in(work.input, work.layout.record_size);
  convert_to(out, in, work);
}

void run(const job& work) {
  input in(work.input, work.layout.record_size);
  if (!to_stdout(work)) {
    sluice::writer out(work.output, {.atomic_replace = true});
    convert_to(out, in, work);
    return out.close();  // the rename
  }
  // A pipe, a terminal or a file alike; close() leaves descriptor 1 open.
  sluice::writer out(sluice::file::borrow(STDOUT_FILENO, "standard output"));
  convert_to(out, in, work);
  out.close();
}

}  // namespace bin2text
