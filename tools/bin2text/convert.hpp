// sluice-bin2text: binary records to XML, CSV or JSON Lines.
#pragma once

#include <cstddef>
#include <string>

#include "common/schema.hpp"
#include "common/text_format.hpp"

namespace sluice {
class writer;
}

namespace bin2text {

struct job {
  std::string input;   // a file, "-" for standard input, or a stream (see input.hpp)
  std::string output;  // empty, "-", /dev/stdout, /dev/fd/1, /proc/self/fd/1: standard output
  sluice_tools::schema layout;
  sluice_tools::format format = sluice_tools::format::xml;
  bool big_endian = false;
  bool progress = false;  // a progress line on stderr (for large inputs)
  unsigned threads = 0;   // threads formatting records; 0: one per CPU
};

// Converts job.input to job.output, formatting chunks of records on
// job.threads threads and writing their text in input order. Nothing is
// written before the first chunk of the input is read: an input that cannot
// be opened or read, a directory, or a file that is not a whole number of
// records leaves no output at all. A file output is written to a temporary
// and renamed over the path only when complete (atomic replace): a failure
// at any point leaves the path as it was. Standard output (a pipe, a
// terminal or a file; named by one of the names above, never replaced) is
// written as the conversion goes, through a writer on the borrowed
// descriptor 1, which stays open: a failure midway leaves there the head and
// whole records from the first on, but no tail. A stream that ends inside a
// record gets its whole records converted, then fails. Throws
// std::runtime_error (a bad input, with the offset and length of a
// truncated record) or std::system_error (I/O), each naming the file
// ("standard input", "standard output" for descriptors 0 and 1).
void run(const job& work);

// Writes job.input as job.format says (head, records, tail) to `out`, which
// stays open; job.output is not used. Throws as run() does, before writing
// anything if the input cannot be read or is a file that is not a whole
// number of records.
void convert(const job& work, sluice::writer& out);

}  // namespace bin2text
