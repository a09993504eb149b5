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

// An input file, its size checked against the record size.
struct input_file {
  sluice::file source;
  std::uint64_t size;
};

input_file open_input(const job& work) {
  auto source = sluice::file::open(work.input, {.mode = sluice::open_mode::read_only});
  std::uint64_t size = source.size();
  std::size_t record = work.layout.record_size;
  if (size % record != 0)
    throw std::runtime_error("'" + work.input + "' is " + std::to_string(size) +
                             " bytes, not a whole number of " + std::to_string(record) +
                             "-byte records: the record at offset " +
                             std::to_string(size - size % record) + " is truncated (" +
                             std::to_string(size % record) + " bytes)");
  return {std::move(source), size};
}

bool to_stdout(const job& work) { return work.output.empty() || work.output == "-"; }

// Reads `size` bytes of whole records at `offset` into `into`.
void read_records(input_file& in, const job& work, unsigned char* into, std::uint64_t offset,
                  std::size_t size) {
  auto got = in.source.read_at(std::as_writable_bytes(std::span(into, size)), offset);
  if (got != size)
    throw std::runtime_error("'" + work.input + "' shrank while being read, at offset " +
                             std::to_string(offset + got));
}

// "sluice-bin2text:  42% of 1024 MiB" on stderr, redrawn when the percentage
// changes; a newline at the end.
class progress_line {
 public:
  progress_line(bool shown, std::uint64_t total) : shown_(shown), total_(total) {}

  void show(std::uint64_t done) {
    int percent = static_cast<int>(done * 100 / total_);
    if (!shown_ || percent == last_) return;
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

// Converts the input a chunk of whole records at a time, on several threads;
// the text goes to `out` in input order. A chunk's block holds its input
// behind the room its text may need, so that one allocation serves both.
void convert_all(input_file& in, sluice::writer& out, const job& work) {
  const record_text text(work.layout, work.format, work.big_endian);
  const std::size_t record = work.layout.record_size;
  const std::uint64_t per_chunk =
      std::max<std::size_t>(1, block_bytes / (text.max_size() + record));
  const std::uint64_t records = in.size / record;
  const auto chunks = static_cast<std::size_t>((records + per_chunk - 1) / per_chunk);
  auto produce = [&](std::size_t chunk, block& made) {
    std::uint64_t first = chunk * per_chunk;
    auto count = static_cast<std::size_t>(std::min(per_chunk, records - first));
    std::size_t text_room = count * text.max_size();
    char* start = made.room(text_room + count * record);
    auto* input = reinterpret_cast<unsigned char*>(start + text_room);
    read_records(in, work, input, first * record, count * record);
    char* end = start;
    for (std::size_t i = 0; i < count; ++i) end = text.write(end, input + i * record);
    made.size = static_cast<std::size_t>(end - start);
  };
  progress_line progress(work.progress && in.size >= progress_from, in.size);
  auto consume = [&](std::size_t chunk, const block& made) {
    out.write(std::string_view(made.bytes.get(), made.size));
    progress.show(std::min(in.size, (chunk + 1) * per_chunk * record));
  };
  for_each_chunk_in_order(chunks, formatting_threads(work.threads), produce, consume);
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

// Head, records, tail into `out`.
void convert_to(sluice::writer& out, input_file& in, const job& work) {
  write_head(out, work);
  convert_all(in, out, work);
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
  input_file in = open_input(work);
  convert_to(out, in, work);
}

void run(const job& work) {
  input_file in = open_input(work);
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
