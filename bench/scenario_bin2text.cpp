// sluice-bench "bin2text": sluice-bin2text's conversion of binary records to
// XML against the same converter written with fmt::output_file. The records
// are id:i32, ts:i64, x:f32, y:f64, flags:u16 (26 bytes, little-endian), read
// from a file; each becomes
//   <record id="7" ts="1700000000259" x="-12.3427734" y="-3301.0048828125" flags="217"/>
// with floating point in the shortest form that reads back to the same value
// (fmt's "{}" and std::to_chars agree on it for these values: none is an
// integer, none is below 1e-4).
#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "io.hpp"
#include "records.hpp"
#include "scenarios.hpp"
#include "units.hpp"

#ifdef SLUICE_BENCH_HAVE_BIN2TEXT
#include "convert.hpp"
#endif

namespace sluice::bench {
namespace {

constexpr std::string_view head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<records>\n";
constexpr std::string_view tail = "</records>\n";
constexpr const char* schema = "id:i32,ts:i64,x:f32,y:f64,flags:u16";

// The binary input, in a temporary file removed with the case.
class input_file {
 public:
  explicit input_file(const std::vector<unsigned char>& bytes) {
    auto pattern =
        (std::filesystem::temp_directory_path() / "sluice-bench-records-XXXXXX").native();
    int fd = ::mkstemp(pattern.data());  // a fresh name
    if (fd < 0) throw std::system_error(errno, std::generic_category(), "mkstemp " + pattern);
    ::close(fd);
    path_ = pattern;
    raw_file out(path_.c_str());
    out.write_all(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    out.finish(false);
  }
  input_file(const input_file&) = delete;
  input_file& operator=(const input_file&) = delete;
  ~input_file() { ::unlink(path_.c_str()); }

  const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
};
using shared_input = std::shared_ptr<const input_file>;

template <class T>
std::size_t text_size(T value) {
  char text[64];
  return static_cast<std::size_t>(std::to_chars(text, text + sizeof text, value).ptr - text);
}

// Record i: varied values, x and y with odd numerators so that none is an
// integer and none is tiny.
record make_record(std::uint64_t i) {
  std::uint64_t h = (i + 1) * 0x9E3779B97F4A7C15u;
  return {static_cast<std::int32_t>(h >> 33), 1700000000000 + static_cast<std::int64_t>(i) * 37,
          static_cast<float>((h % 2000000) | 1) / 1024.0f - 1000.0f,
          static_cast<double>((h >> 20) % (1ull << 40) | 1) / (1 << 20) - 500000.0,
          static_cast<std::uint16_t>(h >> 48)};
}

// Records until their XML reaches `requested` bytes: the input's bytes and
// the XML's size (untimed).
std::pair<std::vector<unsigned char>, std::uint64_t> make_records(std::uint64_t requested) {
  std::vector<unsigned char> bytes;
  std::uint64_t xml = head.size() + tail.size();
  for (std::uint64_t i = 0; xml < requested; ++i) {
    record r = make_record(i);
    append_record(bytes, r);
    xml += std::string_view("<record id=\"\" ts=\"\" x=\"\" y=\"\" flags=\"\"/>\n").size() +
           text_size(r.id) + text_size(r.ts) + text_size(r.x) + text_size(r.y) + text_size(r.flags);
  }
  return {std::move(bytes), xml};
}

#ifdef SLUICE_BENCH_HAVE_FMT
// The converter a {fmt} user writes for this schema: the file read 256 KiB
// of records at a time, one print per record.
void run_fmt_converter(const target& t, const shared_input& in) {
  std::FILE* source = std::fopen(in->path().c_str(), "rb");
  if (!source) throw std::system_error(errno, std::generic_category(), "fopen " + in->path());
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> closing(source, std::fclose);
  std::vector<unsigned char> chunk(big_buffer_size / record_size * record_size);
  write_with_fmt(t, [&](fmt::ostream& out) {
    out.print("{}", head);
    while (std::size_t got = std::fread(chunk.data(), 1, chunk.size(), source)) {
      for (const unsigned char* at = chunk.data(); at < chunk.data() + got; at += record_size) {
        record r = decode_record(at);
        out.print("<record id=\"{}\" ts=\"{}\" x=\"{}\" y=\"{}\" flags=\"{}\"/>\n", r.id, r.ts, r.x,
                  r.y, r.flags);
      }
    }
    out.print("{}", tail);
  });
}
#endif

#ifdef SLUICE_BENCH_HAVE_BIN2TEXT
// sluice-bin2text's conversion on `threads` threads, into a plain writer
// (the tool itself writes a file with atomic replace, which always syncs).
void run_bin2text(const target& t, const shared_input& in, unsigned threads) {
  bin2text::job work;
  work.input = in->path();
  work.layout = bin2text::parse_schema(schema);
  work.threads = threads;
  sluice::writer out = open_writer(t);
  bin2text::convert(work, out);
  finish(out, t);
}
#endif

}  // namespace

std::vector<bench_case> make_bin2text(std::uint64_t requested) {
  auto [bytes, xml] = make_records(requested);
  auto in = std::make_shared<const input_file>(bytes);
  bench_case c{"bin2text",
               "bin2text: " + std::to_string(bytes.size() / record_size) + " binary records (" +
                   format_size(bytes.size()) + ") to " + format_size(xml) + " of XML",
               xml,
               {},
               {}};
#ifdef SLUICE_BENCH_HAVE_FMT
  c.methods.push_back(
      bind_method("fmt::output_file, a print per record", role::peer, run_fmt_converter, in));
#else
  c.skipped.emplace_back(fmt_missing);
#endif
#ifdef SLUICE_BENCH_HAVE_BIN2TEXT
  unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  c.methods.push_back(bind_method(
      "sluice-bin2text, 1 thread", role::sluice,
      [](const target& t, const shared_input& input) { run_bin2text(t, input, 1); }, in));
  if (cpus > 1)
    c.methods.push_back(bind_method(
        "sluice-bin2text, " + std::to_string(cpus) + " threads (one per CPU)", role::sluice,
        [cpus](const target& t, const shared_input& input) { run_bin2text(t, input, cpus); }, in));
#else
  c.skipped.emplace_back("sluice-bin2text: skipped, not built (SLUICE_BUILD_TOOLS is off)");
#endif
  return {std::move(c)};
}

}  // namespace sluice::bench
