#include "convert.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sluice/file.hpp>
#include <sluice/writer.hpp>
#include <span>
#include <stdexcept>
#include <system_error>
#include <utility>
#include <vector>

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

[[noreturn]] void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

// An unlinked temporary file, for standard output: the writer writes with
// pwritev, which a pipe or a terminal refuses (ESPIPE), so the text is made
// there and copied to standard output at the end. Returns the descriptor
// and a second one for reading it back.
std::pair<int, int> open_spool() {
  const char* dir = std::getenv("TMPDIR");
  std::string name = std::string(dir && *dir ? dir : "/tmp") + "/sluice-bin2text-XXXXXX";
  int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) throw_errno("create a temporary file in '" + name + "'");
  ::unlink(name.c_str());
  int reader = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (reader < 0) throw_errno("dup");
  return {fd, reader};
}

// Copies all of `fd` to standard output.
void copy_to_stdout(int fd) {
  std::vector<char> buffer(1 << 20);
  for (off_t offset = 0;;) {
    ssize_t got = ::pread(fd, buffer.data(), buffer.size(), offset);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw_errno("read the temporary file");
    if (got == 0) return;
    offset += got;
    for (ssize_t done = 0; done < got;) {
      ssize_t put =
          ::write(STDOUT_FILENO, buffer.data() + done, static_cast<std::size_t>(got - done));
      if (put < 0 && errno == EINTR) continue;
      if (put < 0) throw_errno("write to standard output");
      done += put;
    }
  }
}

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
  auto [fd, reader] = open_spool();
  sluice::file reading(reader, "the temporary file");  // closes it on every path
  sluice::writer out(sluice::file(fd, "the temporary file"));
  convert_to(out, in, work);
  copy_to_stdout(reader);
}

}  // namespace bin2text
