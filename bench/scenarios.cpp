// sluice-bench: the list of scenarios and their default sizes, chosen so
// that a default run takes under a minute on a 2-core VM.
#include "scenarios.hpp"

#include <array>

namespace sluice::bench {
namespace {

constexpr std::uint64_t mib = 1024 * 1024;

constexpr std::array<scenario, 9> all = {{
    {"bytes", "one byte per call: stdio, iostreams, {fmt}, a hand buffer, sluice put", 32 * mib,
     make_bytes},
    {"text", "\"All work and no play...\" lines of a few pieces each", 64 * mib, make_text},
    {"convert",
     "binary records to XML: std::stringstream, fprintf, {fmt}, sluice print, fmt bridge, ostream",
     16 * mib, make_convert},
    {"bin2text", "sluice-bin2text's conversion to XML, on 1 and every CPU, vs a {fmt} converter",
     32 * mib, make_bin2text},
    {"gather", "many small pieces: write(2) each, writev, sluice writer and write_gather", 32 * mib,
     make_gather},
    {"large",
     "1 MiB pieces: write(2), sluice writer (normal, no_cache, direct), what each leaves cached",
     256 * mib, make_large},
    {"fragment", "two files in turns: extents with and without preallocate", 64 * mib,
     make_fragment},
    {"durable", "a journal: transactions of 100 records, each fdatasync'ed before the next",
     1000 * 11600, make_durable},
    {"journal",
     "sluice::journal at 1, 4, 16 threads vs write(2) + fdatasync, RocksDB, LevelDB, SQLite",
     300 * 11600, make_journal_case},
}};

}  // namespace

std::span<const scenario> scenarios() { return all; }

}  // namespace sluice::bench
