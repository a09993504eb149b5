// sluice-bench: the list of scenarios and their default sizes, chosen so
// that a default run takes under a minute on a 2-core VM.
#include "scenarios/scenarios.hpp"

#include <algorithm>
#include <array>

#include "core/units.hpp"

namespace sluice::bench {
namespace {

constexpr std::uint64_t mib = 1024 * 1024;

// Disk estimates (scenario::disk_needed). A case whose runs each write
// `bytes` has twice that on disk at most: the run's output and the
// runner's reference copy of the first good one.

// bytes, text, convert, gather, patch, large, durable: an output of `size` bytes
// (or a line, an element or a transaction more), and gather's whole
// 1 MiB piece set at least.
std::uint64_t one_output(std::uint64_t size) { return saturating_mul(2, std::max(size, mib)); }

// fragment: the output, its companion and the reference.
std::uint64_t two_outputs(std::uint64_t size) { return saturating_mul(3, std::max(size, mib)); }

// read, lines, numbers: their input, `size` bytes (a line or a row more),
// and nothing written.
std::uint64_t input_only(std::uint64_t size) { return saturating_add(size, 4096); }

// bin2text: the XML and its reference, and the binary input in the work
// directory: 26 bytes a record, whose element takes 58 or more.
std::uint64_t xml_and_input(std::uint64_t size) {
  return saturating_add(one_output(size), size / 2);
}

// text2bin: each format's text (of `size` bytes, a record more at most),
// read in turn, and the records it becomes and their reference, 26 bytes a
// record, whose text takes 50 or more.
std::uint64_t text_and_records(std::uint64_t size) {
  return saturating_add(saturating_add(size, 4096), one_output(size / 2));
}

constexpr std::array<scenario, 16> all = {{
    {"bytes",
     "one byte per call: stdio, iostreams, {fmt}, a hand buffer, sluice put; C stdio, C API put",
     32 * mib, make_bytes, one_output},
    {"text", "\"All work and no play...\" lines of a few pieces each", 64 * mib, make_text,
     one_output},
    {"convert",
     "binary records to XML: std::stringstream, fprintf, {fmt}, sluice print, fmt bridge, ostream",
     16 * mib, make_convert, one_output},
    {"bin2text", "sluice-bin2text's conversion to XML, on 1 and every CPU, vs a {fmt} converter",
     32 * mib, make_bin2text, xml_and_input},
    {"text2bin",
     "CSV, JSON Lines, XML to binary records: iostreams, from_chars, nlohmann, simdjson, pugixml, "
     "expat, sluice-text2bin on 1 and every CPU",
     32 * mib, make_text2bin, text_and_records},
    {"gather", "many small pieces: write(2) each, writev, sluice writer and write_gather", 32 * mib,
     make_gather, one_output},
    {"patch", "a delta tool's matches: little-endian fields and literals, stdio, iostreams, sluice",
     64 * mib, make_patch, one_output},
    {"large",
     "1 MiB pieces: write(2), sluice writer (normal, no_cache, direct), what each leaves cached",
     256 * mib, make_large, one_output},
    {"fragment", "two files in turns: extents with and without preallocate", 64 * mib,
     make_fragment, two_outputs},
    {"durable", "a journal: transactions of 100 records, each fdatasync'ed before the next",
     1000 * 11600, make_durable, one_output},
    {"journal",
     "sluice::journal at 1, 4, 16 threads (C API at 1, 16) vs write(2) + fdatasync, RocksDB, "
     "LevelDB, SQLite",
     300 * 11600, make_journal_case, journal_disk_needed},
    {"tune",
     "sluice::writer's options one at a time against its defaults, the file made durable: what "
     "--recommend reads",
     64 * mib, make_tune, one_output, false},
    {"read", "a file's bytes, cached and cold: read(2), fread, std::ifstream::read, mmap, sluice",
     256 * mib, make_read, input_only},
    {"lines", "count lines: read(2) + memchr, getline(3), std::getline, fgets, mmap + memchr",
     32 * mib, make_lines, input_only},
    {"numbers",
     "sum a CSV of int64, double, int32: >>, fscanf, strtod, from_chars, fast_float, sluice "
     "read_number and read_fields",
     4 * mib, make_numbers, input_only},
    {"scatter",
     "a file into many pieces of memory: pread each, preadv, one pread + copies, sluice "
     "read_into",
     16 * mib, make_scatter, scatter_input_size},
}};

}  // namespace

std::span<const scenario> scenarios() { return all; }

}  // namespace sluice::bench
