// sluice-bench "bin2text": sluice-bin2text's conversion of binary records to
// XML against the same converter written with fmt::output_file. The records
// are id:i32, ts:i64, x:f32, y:f64, flags:u16 (26 bytes, little-endian), read
// from a file; each becomes
//   <record id="7" ts="1700000000259" x="-12.3427734" y="-3301.0048828125" flags="217"/>
// with floating point in the shortest form that reads back to the same value
// (fmt's "{}" and std::to_chars agree on it for these values: none is an
// integer, none is below 1e-4). The input is written to the work directory
// before the case's first run (bench_case::input).
#include <charconv>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "core/io.hpp"
#include "core/units.hpp"
#include "peers/fmt_output_file.hpp"
#include "scenarios/record_text.hpp"
#include "scenarios/records.hpp"
#include "scenarios/scenarios.hpp"

#ifdef SLUICE_BENCH_HAVE_BIN2TEXT
#include "bin2text/convert.hpp"
#include "common/schema.hpp"
#endif

namespace sluice::bench {
namespace {

const std::string_view head = text_head(text_form::xml);
const std::string_view tail = text_tail(text_form::xml);

template <class T>
std::size_t text_size(T value) {
  char text[64];
  return static_cast<std::size_t>(std::to_chars(text, text + sizeof text, value).ptr - text);
}

// Records until their XML reaches `requested` bytes: the input's bytes and
// the XML's size (untimed).
std::pair<std::vector<unsigned char>, std::uint64_t> make_records(std::uint64_t requested) {
  std::vector<unsigned char> bytes;
  std::uint64_t xml = head.size() + tail.size();
  for (std::uint64_t i = 0; xml < requested; ++i) {
    record r = varied_record(i);
    append_record(bytes, r);
    xml += std::string_view("<record id=\"\" ts=\"\" x=\"\" y=\"\" flags=\"\"/>\n").size() +
           text_size(r.id) + text_size(r.ts) + text_size(r.x) + text_size(r.y) + text_size(r.flags);
  }
  return {std::move(bytes), xml};
}

// The converter a {fmt} user writes for this schema, printing to `out` (an
// fmt::ostream): the input file read 256 KiB of records at a time, one print
// per record.
template <class Out>
void convert_with_fmt(Out& out, const target& t) {
  std::FILE* source = std::fopen(t.input, "rb");
  if (!source)
    throw std::system_error(errno, std::generic_category(), std::string("fopen ") + t.input);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> closing(source, std::fclose);
  std::vector<unsigned char> chunk(big_buffer_size / record_size * record_size);
  out.print("{}", head);
  while (std::size_t got = std::fread(chunk.data(), 1, chunk.size(), source)) {
    for (const unsigned char* at = chunk.data(); at < chunk.data() + got; at += record_size) {
      record r = decode_record(at);
      out.print("<record id=\"{}\" ts=\"{}\" x=\"{}\" y=\"{}\" flags=\"{}\"/>\n", r.id, r.ts, r.x,
                r.y, r.flags);
    }
  }
  out.print("{}", tail);
}

#ifdef SLUICE_BENCH_HAVE_BIN2TEXT
// sluice-bin2text's conversion on `threads` threads, into a plain writer
// (the tool itself writes a file with atomic replace, which always syncs).
void run_bin2text(const target& t, unsigned threads) {
  bin2text::job work;
  work.input = t.input;
  work.layout = sluice_tools::parse_schema(record_schema);
  work.threads = threads;
  sluice::writer out = open_writer(t);
  bin2text::convert(work, out);
  finish(out, t);
}
#endif

}  // namespace

std::vector<bench_case> make_bin2text(std::uint64_t requested) {
  auto [bytes, xml] = make_records(requested);
  bench_case c{"bin2text",
               "bin2text: " + std::to_string(bytes.size() / record_size) + " binary records (" +
                   format_size(bytes.size()) + ") to " + format_size(xml) + " of XML",
               xml,
               {},
               {}};
  c.input = make_input_maker([input = std::make_shared<const std::vector<unsigned char>>(
                                  std::move(bytes))](const char* path) {
    raw_file out(path);
    out.write_all(reinterpret_cast<const char*>(input->data()), input->size());
    out.finish(false);
  });
  add_fmt_peer(c, "fmt::output_file, a print per record",
               [](auto& out, const target& t) { convert_with_fmt(out, t); });
#ifdef SLUICE_BENCH_HAVE_BIN2TEXT
  unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  c.methods.push_back(
      {"sluice-bin2text, 1 thread", role::sluice, [](const target& t) { run_bin2text(t, 1); }});
  if (cpus > 1)
    c.methods.push_back({"sluice-bin2text, " + std::to_string(cpus) + " threads (one per CPU)",
                         role::sluice, [cpus](const target& t) { run_bin2text(t, cpus); }});
#else
  c.skipped.emplace_back("sluice-bin2text: skipped, not built (SLUICE_BUILD_TOOLS is off)");
#endif
  return {std::move(c)};
}

}  // namespace sluice::bench
