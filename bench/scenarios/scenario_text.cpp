// sluice-bench "text": the "All work and no play makes Jack a dull boy."
// file. Line n starts with n % 8 tabs and names, in turn, Jack, Justin
// Michel, Fred Flintstone, Barney Rubble, Homer J. Simpson and John Jacob
// Jingleheimer Schmidt. The naive iostream program stops at the first line
// that reaches --size; every other method writes exactly as many lines.
#include <array>
#include <fstream>
#include <sluice/ostream.hpp>
#include <string>
#include <string_view>

#include "core/io.hpp"
#include "core/units.hpp"
#include "peers/fmt_output_file.hpp"
#include "peers/ofstream.hpp"
#include "peers/stdio_file.hpp"
#include "peers/stdio_unlocked.h"
#include "scenarios/scenarios.hpp"

namespace sluice::bench {
namespace {

constexpr std::array<std::string_view, 6> names = {
    "Jack",          "Justin Michel",    "Fred Flintstone",
    "Barney Rubble", "Homer J. Simpson", "John Jacob Jingleheimer Schmidt"};
constexpr std::string_view all_tabs = "\t\t\t\t\t\t\t";
constexpr std::string_view opening = "All work and no play makes ";
constexpr std::string_view closing = " a dull boy.\n";

std::string_view tabs_of(std::uint64_t line) { return all_tabs.substr(0, line % 8); }
std::string_view name_of(std::uint64_t line) { return names[line % names.size()]; }

struct text_size {
  std::uint64_t requested;  // --size: where the naive program stops
  std::uint64_t lines;      // the lines it writes to get there
  std::uint64_t bytes;      // their length
};

// Calls write(piece) for the four pieces of each of the first `lines` lines.
template <class Write>
void write_lines(std::uint64_t lines, Write&& write) {
  for (std::uint64_t line = 0; line < lines; ++line) {
    write(tabs_of(line));
    write(opening);
    write(name_of(line));
    write(closing);
  }
}

// The program people write first: operator<<, tellp() in the loop
// condition and the default buffer. Through std::ofstream each tellp()
// is a system call; through sluice::ostream the same code makes none.
// Opened binary, which POSIX does not tell from text mode: on Windows, text
// mode would write each '\n' as CR LF, not the bytes the other rows write.
template <class Stream>
void write_naive(Stream& out, const text_size& size) {
  std::uint64_t line = 0;
  while (out && out.tellp() < static_cast<std::streamoff>(size.requested)) {
    out << std::string(line % 8, '\t') << "All work and no play makes " << name_of(line)
        << " a dull boy." << '\n';
    ++line;
  }
}

void run_ofstream_naive(const target& t, const text_size& size) {
  std::ofstream out(t.path, std::ios::binary);
  write_naive(out, size);
  finish(out, t);
}

// The same program with sluice::ostream in place of std::ofstream.
void run_sluice_ostream_naive(const target& t, const text_size& size) {
  sluice::ostream out(t.path, ostream_options(t));
  write_naive(out, size);
  out.close();
}

// The best std::ofstream can do: binary mode, a 256 KiB buffer, write()
// of pieces whose lengths are known.
void run_ofstream_tuned(const target& t, const text_size& size) {
  buffered_ofstream file(t.path);
  std::ofstream& out = file.get();
  write_lines(size.lines, [&out](std::string_view piece) {
    out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
  });
  finish(out, t);
}

void run_fwrite_unlocked(const target& t, const text_size& size) {
  stdio_file out(t.path, big_buffer_size);
  std::FILE* f = out.get();
  write_lines(size.lines, [f](std::string_view piece) {
    SLUICE_BENCH_FWRITE_UNLOCKED(piece.data(), 1, piece.size(), f);
  });
  out.finish(t.sync);
}

void run_sluice_write(const target& t, const text_size& size, bool write_behind) {
  sluice::writer out = open_writer(t, {.write_behind = write_behind});
  write_lines(size.lines, [&out](std::string_view piece) { out.write(piece); });
  finish(out, t);
}

// Adds up line lengths as the naive program's tellp() sees them.
text_size measure(std::uint64_t requested) {
  text_size size{requested, 0, 0};
  for (; size.bytes < requested; ++size.lines)
    size.bytes +=
        tabs_of(size.lines).size() + opening.size() + name_of(size.lines).size() + closing.size();
  return size;
}

}  // namespace

std::vector<bench_case> make_text(std::uint64_t requested) {
  text_size size = measure(requested);
  bench_case c{"text",
               "text: " + format_size(size.bytes) + ", " + std::to_string(size.lines) +
                   " lines of \"All work and no play makes Jack a dull boy.\"",
               size.bytes,
               {},
               {}};
  c.methods.push_back(
      bind_method("std::ofstream <<, tellp() loop", role::peer, run_ofstream_naive, size));
  c.methods.push_back(
      bind_method("std::ofstream::write, 256 KiB buffer", role::peer, run_ofstream_tuned, size));
  c.methods.push_back(
      bind_method(std::string(SLUICE_BENCH_FWRITE_UNLOCKED_NAME) + ", 256 KiB setvbuf", role::peer,
                  run_fwrite_unlocked, size));
  // How {fmt} is meant to be used: one print() per line.
  add_fmt_peer(c, "fmt::output_file print, a line", [size](auto& out, const target&) {
    for (std::uint64_t line = 0; line < size.lines; ++line)
      out.print("{}All work and no play makes {} a dull boy.\n", tabs_of(line), name_of(line));
  });
  c.methods.push_back(bind_method(
      "sluice writer::write", role::sluice,
      [](const target& t, const text_size& s) { run_sluice_write(t, s, false); }, size));
  c.methods.push_back(bind_method(
      "sluice writer::write, write_behind", role::sluice,
      [](const target& t, const text_size& s) { run_sluice_write(t, s, true); }, size));
  c.methods.push_back(bind_method("sluice::ostream <<, tellp() loop", role::sluice,
                                  run_sluice_ostream_naive, size));
  return {std::move(c)};
}

}  // namespace sluice::bench
