// sluice-bin2text: binary records to XML, CSV or JSON Lines.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "schema.hpp"

namespace sluice {
class writer;
}

namespace bin2text {

enum class format { xml, csv, jsonl };

// "xml", "csv" or "jsonl"; throws std::invalid_argument otherwise.
format parse_format(std::string_view name);

struct job {
  std::string input;
  std::string output;  // empty or "-": standard output
  schema layout;
  bin2text::format format = format::xml;
  bool big_endian = false;
  bool progress = false;  // a progress line on stderr (for large inputs)
  unsigned threads = 0;   // threads formatting records; 0: one per CPU
};

// Converts job.input to job.output, formatting chunks of records on
// job.threads threads and writing their text in input order. Nothing is written unless the input is
// a whole number of records. A file output is written to a temporary and
// renamed over the path only when complete (atomic replace): a failure
// leaves the path as it was. Standard output (a pipe, a terminal or a file)
// is written as the conversion goes, through a writer on the borrowed
// descriptor 1, which stays open. Throws std::runtime_error (a bad input,
// with the offset of a truncated record) or std::system_error (I/O), each
// naming the file ("standard output" for descriptor 1).
void run(const job& work);

// Writes job.input as job.format says (head, records, tail) to `out`, which
// stays open; job.output is not used. Throws as run() does, before writing
// anything if the input is not a whole number of records.
void convert(const job& work, sluice::writer& out);

}  // namespace bin2text
