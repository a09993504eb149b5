// sluice-bench "convert": fixed-layout binary records turned into XML, one
// element per record, the workload of a binary-to-XML converter. A record is
// id:i32, ts:i64, x:f32, y:f64, flags:u16, little-endian, packed (26 bytes);
// each becomes
//   <r id="7" ts="1700000000259" x="123.375" y="-17.062500" flags="217"/>
// with x to 3 decimals and y to 6, which every method writes identically.
// A second case writes x and y in the shortest form that reads back ("{}"),
//   <r id="7" ts="1700000000259" x="123.375" y="-17.0625" flags="217"/>
// through the writers that have it: {fmt}'s and sluice's.
#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <memory>
#include <sluice/ostream.hpp>
#include <sluice/writer.hpp>
#include <sstream>
#include <string>
#include <vector>

#ifdef SLUICE_BENCH_HAVE_FMT
#include <sluice/fmt.hpp>
#endif

#include "core/io.hpp"
#include "core/units.hpp"
#include "peers/fmt_output_file.hpp"
#include "peers/ofstream.hpp"
#include "peers/stdio_file.hpp"
#include "scenarios/records.hpp"
#include "scenarios/scenarios.hpp"

namespace sluice::bench {
namespace {

constexpr std::string_view head = "<records>\n";
constexpr std::string_view tail = "</records>\n";

// The binary input: `count` packed records.
struct input {
  std::vector<unsigned char> bytes;
  std::size_t count;
};
using shared_input = std::shared_ptr<const input>;

// Calls each(record) for every record of the input.
template <class Each>
void for_each_record(const input& in, Each&& each) {
  for (std::size_t i = 0; i < in.count; ++i) each(decode_record(in.bytes.data() + i * record_size));
}

// The original converter: a std::stringstream per record, its str() to a
// std::ofstream.
void run_stringstream(const target& t, const shared_input& in) {
  std::ofstream out(t.path, std::ios::binary);
  out << head;
  for_each_record(*in, [&out](const record& r) {
    std::stringstream element;
    element << "<r id=\"" << r.id << "\" ts=\"" << r.ts << "\" x=\"" << std::fixed
            << std::setprecision(3) << r.x << "\" y=\"" << std::setprecision(6) << r.y
            << "\" flags=\"" << r.flags << "\"/>\n";
    out << element.str();
  });
  out << tail;
  finish(out, t);
}

void run_fprintf(const target& t, const shared_input& in) {
  stdio_file out(t.path, big_buffer_size);
  std::FILE* f = out.get();
  std::fputs(head.data(), f);
  for_each_record(*in, [f](const record& r) {
    std::fprintf(f,
                 "<r id=\"%" PRId32 "\" ts=\"%" PRId64 "\" x=\"%.3f\" y=\"%.6f\" flags=\"%u\"/>\n",
                 r.id, r.ts, static_cast<double>(r.x), r.y, static_cast<unsigned>(r.flags));
  });
  std::fputs(tail.data(), f);
  out.finish(t.sync);
}

// The {fmt} peer's records, printed to `out` (an fmt::ostream).
template <class Out>
void print_with_fmt(Out& out, const input& in) {
  out.print("{}", head);
  for_each_record(in, [&out](const record& r) {
    out.print("<r id=\"{}\" ts=\"{}\" x=\"{:.3f}\" y=\"{:.6f}\" flags=\"{}\"/>\n", r.id, r.ts, r.x,
              r.y, r.flags);
  });
  out.print("{}", tail);
}

#ifdef SLUICE_BENCH_HAVE_FMT
void run_sluice_fmt(const target& t, const shared_input& in) {
  sluice::writer out = open_writer(t);
  out.write(head);
  for_each_record(*in, [&out](const record& r) {
    sluice::print(out, "<r id=\"{}\" ts=\"{}\" x=\"{:.3f}\" y=\"{:.6f}\" flags=\"{}\"/>\n", r.id,
                  r.ts, r.x, r.y, r.flags);
  });
  out.write(tail);
  finish(out, t);
}
#endif

void run_sluice_print(const target& t, const shared_input& in) {
  sluice::writer out = open_writer(t);
  out.write(head);
  for_each_record(*in, [&out](const record& r) {
    out.write("<r id=\"");
    out.print(r.id);
    out.write("\" ts=\"");
    out.print(r.ts);
    out.write("\" x=\"");
    out.print(r.x, sluice::fixed(3));
    out.write("\" y=\"");
    out.print(r.y, sluice::fixed(6));
    out.write("\" flags=\"");
    out.print(r.flags);
    out.write("\"/>\n");
  });
  out.write(tail);
  finish(out, t);
}

// The original converter's insertions, straight into a sluice::ostream.
void run_sluice_ostream(const target& t, const shared_input& in) {
  sluice::ostream out(t.path, ostream_options(t));
  out << head << std::fixed;
  for_each_record(*in, [&out](const record& r) {
    out << "<r id=\"" << r.id << "\" ts=\"" << r.ts << "\" x=\"" << std::setprecision(3) << r.x
        << "\" y=\"" << std::setprecision(6) << r.y << "\" flags=\"" << r.flags << "\"/>\n";
  });
  out << tail;
  out.close();
}

// The shortest-float case: {fmt}'s "{}" and sluice's print(x) write the
// same text for these values (varied_record's, none an integer or tiny).
template <class Out>
void print_shortest_with_fmt(Out& out, const input& in) {
  out.print("{}", head);
  for_each_record(in, [&out](const record& r) {
    out.print("<r id=\"{}\" ts=\"{}\" x=\"{}\" y=\"{}\" flags=\"{}\"/>\n", r.id, r.ts, r.x, r.y,
              r.flags);
  });
  out.print("{}", tail);
}

#ifdef SLUICE_BENCH_HAVE_FMT
void run_sluice_fmt_shortest(const target& t, const shared_input& in) {
  sluice::writer out = open_writer(t);
  out.write(head);
  for_each_record(*in, [&out](const record& r) {
    sluice::print(out, "<r id=\"{}\" ts=\"{}\" x=\"{}\" y=\"{}\" flags=\"{}\"/>\n", r.id, r.ts, r.x,
                  r.y, r.flags);
  });
  out.write(tail);
  finish(out, t);
}
#endif

void run_sluice_print_shortest(const target& t, const shared_input& in) {
  sluice::writer out = open_writer(t);
  out.write(head);
  for_each_record(*in, [&out](const record& r) {
    out.write("<r id=\"");
    out.print(r.id);
    out.write("\" ts=\"");
    out.print(r.ts);
    out.write("\" x=\"");
    out.print(r.x);
    out.write("\" y=\"");
    out.print(r.y);
    out.write("\" flags=\"");
    out.print(r.flags);
    out.write("\"/>\n");
  });
  out.write(tail);
  finish(out, t);
}

// The length of r's element (untimed: sizing the case).
std::size_t element_size(const record& r) {
  return static_cast<std::size_t>(std::snprintf(
      nullptr, 0, "<r id=\"%" PRId32 "\" ts=\"%" PRId64 "\" x=\"%.3f\" y=\"%.6f\" flags=\"%u\"/>\n",
      r.id, r.ts, static_cast<double>(r.x), r.y, static_cast<unsigned>(r.flags)));
}

// Records of varied values until their XML reaches `requested` bytes.
std::pair<shared_input, std::uint64_t> make_input(std::uint64_t requested) {
  auto in = std::make_shared<input>();
  std::uint64_t xml = head.size() + tail.size();
  for (std::uint64_t i = 0; xml < requested; ++i) {
    record r{static_cast<std::int32_t>(i * 2654435761u % 2000000000u),
             1700000000000 + static_cast<std::int64_t>(i) * 37,
             static_cast<float>(i * 7919 % 100000) / 64.0f - 500.0f,
             static_cast<double>(i * 104729 % 1000003) / 1024.0 - 400.0,
             static_cast<std::uint16_t>(i * 31)};
    append_record(in->bytes, r);
    xml += element_size(r);
    ++in->count;
  }
  return {std::move(in), xml};
}

// The length of r's element with shortest floats (untimed: sizing the case).
std::size_t shortest_element_size(const record& r) {
  char text[32];
  auto length = [&text](auto value) {
    return static_cast<std::size_t>(std::to_chars(text, text + sizeof text, value).ptr - text);
  };
  constexpr std::size_t fixed_text =
      std::string_view("<r id=\"\" ts=\"\" x=\"\" y=\"\" flags=\"\"/>\n").size();
  return fixed_text + length(r.id) + length(r.ts) + length(r.x) + length(r.y) + length(r.flags);
}

// varied_record()s until their XML with shortest floats reaches `requested`.
std::pair<shared_input, std::uint64_t> make_shortest_input(std::uint64_t requested) {
  auto in = std::make_shared<input>();
  std::uint64_t xml = head.size() + tail.size();
  for (std::uint64_t i = 0; xml < requested; ++i) {
    record r = varied_record(i);
    append_record(in->bytes, r);
    xml += shortest_element_size(r);
    ++in->count;
  }
  return {std::move(in), xml};
}

bench_case make_shortest_case(std::uint64_t requested) {
  auto [in, xml] = make_shortest_input(requested);
  bench_case c{"convert",
               "convert, shortest floats: " + std::to_string(in->count) + " binary records (" +
                   format_size(in->bytes.size()) + ") to " + format_size(xml) +
                   " of XML, x and y as \"{}\" writes them",
               xml,
               {},
               {}};
  add_fmt_peer(c, "fmt::output_file print, a record",
               [in](auto& out, const target&) { print_shortest_with_fmt(out, *in); });
  c.methods.push_back(
      bind_method("sluice writer::write + print", role::sluice, run_sluice_print_shortest, in));
#ifdef SLUICE_BENCH_HAVE_FMT
  c.methods.push_back(bind_method("sluice::print (fmt bridge), a record", role::sluice,
                                  run_sluice_fmt_shortest, in));
#endif
  return c;
}

}  // namespace

std::vector<bench_case> make_convert(std::uint64_t requested) {
  auto [in, xml] = make_input(requested);
  bench_case c{"convert",
               "convert: " + std::to_string(in->count) + " binary records (" +
                   format_size(in->bytes.size()) + ") to " + format_size(xml) + " of XML",
               xml,
               {},
               {}};
  c.methods.push_back(
      bind_method("std::stringstream per record, std::ofstream", role::peer, run_stringstream, in));
  c.methods.push_back(bind_method("fprintf, 256 KiB setvbuf", role::peer, run_fprintf, in));
  add_fmt_peer(c, "fmt::output_file print, a record",
               [in](auto& out, const target&) { print_with_fmt(out, *in); });
  c.methods.push_back(
      bind_method("sluice writer::write + print", role::sluice, run_sluice_print, in));
#ifdef SLUICE_BENCH_HAVE_FMT
  c.methods.push_back(
      bind_method("sluice::print (fmt bridge), a record", role::sluice, run_sluice_fmt, in));
#endif
  c.methods.push_back(
      bind_method("sluice::ostream <<, a record", role::sluice, run_sluice_ostream, in));
  std::vector<bench_case> cases;
  cases.push_back(std::move(c));
  cases.push_back(make_shortest_case(requested));
  return cases;
}

}  // namespace sluice::bench
