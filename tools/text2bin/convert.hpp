// sluice-text2bin: XML, CSV or JSON Lines to fixed-layout binary records.
#pragma once

#include <cstddef>
#include <string>

#include "common/schema.hpp"
#include "common/text_format.hpp"

namespace sluice {
class writer;
}

namespace text2bin {

// Whether CSV input starts with a header row naming the columns.
enum class csv_header {
  detect,   // a first row whose cells are all the schema's field names is a header
  present,  // the first row is a header; a cell that names no field is an error
  absent,   // every row is a record, its columns in the schema's order
};

struct job {
  std::string input;   // a file, "-" for standard input, or a stream
  std::string output;  // empty, "-", /dev/stdout, /dev/fd/1, /proc/self/fd/1: standard output
  sluice_tools::schema layout;
  sluice_tools::format format = sluice_tools::format::xml;
  bool big_endian = false;
  bool progress = false;  // a progress line on stderr (for large inputs)
  unsigned threads = 0;   // threads parsing records; 0: one per CPU

  csv_header header = csv_header::detect;
  bool trim_spaces = false;               // CSV: spaces and tabs around a cell are not part of it
  std::string record_element = "record";  // XML: the name of a record's element

  // A piece, the text a worker parses at a time, is cut at the last record
  // end before this many bytes from its start. Default: 1 MiB, which
  // measured faster than 4 MiB on one thread and on two (a piece's text is
  // still in the caches when parsed; fewer pages to fault in), and keeps
  // memory a few MiB per thread. (Tests make it small, to cut an input many
  // times.)
  std::size_t piece_bytes = std::size_t{1} << 20;
  // The longest stretch without a record end (a record, or the head) read
  // in whole, the buffer doubling, before it is an error. Default: 64 MiB.
  std::size_t max_record_bytes = std::size_t{64} << 20;
};

// Converts job.input to job.output: parses pieces of whole records on
// job.threads threads and writes their packed records in input order. A
// file output is written to a temporary and renamed over the path only when
// complete (atomic replace): bad input or a failure at any point leaves the
// path as it was. Standard output is written as the conversion goes. Throws
// std::runtime_error for bad input, naming the input, the line and column
// (counted from 1, the column in bytes) and the byte offset, and what was
// expected:
//   'points.csv' line 7, column 12 (offset 4133): expected a decimal
//   integer for field 'id' (i32), found "12x"
// or std::system_error (I/O) naming the file ("standard input", "standard
// output" for descriptors 0 and 1).
void run(const job& work);

// Writes the records of job.input to `out`, which stays open; job.output is
// not used. Throws as run() does.
void convert(const job& work, sluice::writer& out);

}  // namespace text2bin
