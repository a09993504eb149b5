#include "convert.hpp"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sluice/file.hpp>
#include <sluice/writer.hpp>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

namespace bin2text {
namespace {

constexpr std::size_t chunk_bytes = 4 * 1024 * 1024;
constexpr std::uint64_t progress_from = 64 * 1024 * 1024;

// The field's `Bits` wide value at `at`, in the host's order.
template <class Bits>
Bits load(const unsigned char* at, bool big_endian) {
  Bits bits;
  std::memcpy(&bits, at, sizeof bits);
  if (big_endian != (std::endian::native == std::endian::big)) {
    if constexpr (sizeof(Bits) == 2) bits = __builtin_bswap16(bits);
    if constexpr (sizeof(Bits) == 4) bits = __builtin_bswap32(bits);
    if constexpr (sizeof(Bits) == 8) bits = __builtin_bswap64(bits);
  }
  return bits;
}

// Shortest round-trip text; JSON has no NaN or infinity: null.
template <class T>
void print_floating(sluice::writer& out, T value, format fmt) {
  if (fmt == format::jsonl && !std::isfinite(value)) return out.write("null");
  out.print(value);
}

void print_value(sluice::writer& out, const field& f, const unsigned char* at, bool big,
                 format fmt) {
  switch (f.type) {
    case field_type::i8: return out.print(static_cast<std::int8_t>(*at));
    case field_type::u8: return out.print(static_cast<std::uint8_t>(*at));
    case field_type::i16: return out.print(static_cast<std::int16_t>(load<std::uint16_t>(at, big)));
    case field_type::u16: return out.print(load<std::uint16_t>(at, big));
    case field_type::i32: return out.print(static_cast<std::int32_t>(load<std::uint32_t>(at, big)));
    case field_type::u32: return out.print(load<std::uint32_t>(at, big));
    case field_type::i64: return out.print(static_cast<std::int64_t>(load<std::uint64_t>(at, big)));
    case field_type::u64: return out.print(load<std::uint64_t>(at, big));
    case field_type::f32:
      return print_floating(out, std::bit_cast<float>(load<std::uint32_t>(at, big)), fmt);
    case field_type::f64:
      return print_floating(out, std::bit_cast<double>(load<std::uint64_t>(at, big)), fmt);
  }
}

void write_record(sluice::writer& out, const job& work, const unsigned char* record) {
  const auto& fields = work.layout.fields;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const field& f = fields[i];
    switch (work.format) {
      case format::xml:
        out.write(i == 0 ? "<record " : "\" ");
        out.write(f.name);
        out.write("=\"");
        break;
      case format::csv:
        if (i != 0) out.put(',');
        break;
      case format::jsonl:
        out.write(i == 0 ? "{\"" : ",\"");
        out.write(f.name);
        out.write("\":");
        break;
    }
    print_value(out, f, record + f.offset, work.big_endian, work.format);
  }
  switch (work.format) {
    case format::xml: return out.write(fields.empty() ? "<record/>\n" : "\"/>\n");
    case format::csv: return out.put('\n');
    case format::jsonl: return out.write("}\n");
  }
}

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

void show_progress(std::uint64_t done, std::uint64_t total) {
  std::fprintf(stderr, "\rsluice-bin2text: %3d%% of %llu MiB", static_cast<int>(done * 100 / total),
               static_cast<unsigned long long>(total >> 20));
  if (done == total) std::fputc('\n', stderr);
}

// Reads the input a chunk of whole records at a time and converts it.
void convert_all(input_file& in, sluice::writer& out, const job& work) {
  std::size_t record = work.layout.record_size;
  std::size_t chunk = std::max<std::size_t>(1, chunk_bytes / record) * record;
  auto buffer = std::make_unique<unsigned char[]>(chunk);
  bool progress = work.progress && in.size >= progress_from;
  for (std::uint64_t offset = 0; offset < in.size;) {
    auto want = static_cast<std::size_t>(std::min<std::uint64_t>(chunk, in.size - offset));
    auto got = in.source.read_at(std::as_writable_bytes(std::span(buffer.get(), want)), offset);
    if (got != want)
      throw std::runtime_error("'" + work.input + "' shrank while being read, at offset " +
                               std::to_string(offset + got));
    write_records(out, work, buffer.get(), want / record);
    offset += want;
    if (progress) show_progress(offset, in.size);
  }
}

}  // namespace

format parse_format(std::string_view name) {
  if (name == "xml") return format::xml;
  if (name == "csv") return format::csv;
  if (name == "jsonl") return format::jsonl;
  throw std::invalid_argument("unknown format '" + std::string(name) + "' (xml, csv or jsonl)");
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

void write_records(sluice::writer& out, const job& work, const unsigned char* data,
                   std::size_t count) {
  for (std::size_t i = 0; i < count; ++i)
    write_record(out, work, data + i * work.layout.record_size);
}

// Head, records, tail into `out`, then close() (the rename of an atomic
// replace).
void convert_to(sluice::writer& out, input_file& in, const job& work) {
  write_head(out, work);
  convert_all(in, out, work);
  write_tail(out, work);
  out.close();
}

void run(const job& work) {
  input_file in = open_input(work);
  if (!to_stdout(work)) {
    sluice::writer out(work.output, {.atomic_replace = true});
    return convert_to(out, in, work);
  }
  // A pipe, a terminal or a file alike; close() leaves descriptor 1 open.
  sluice::writer out(sluice::file::borrow(STDOUT_FILENO, "standard output"));
  convert_to(out, in, work);
}

}  // namespace bin2text
