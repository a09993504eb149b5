// sluice-bench "text2bin": the JSON Lines converters a user writes without
// a JSON library, for the form record_text.hpp writes (sluice-bin2text's:
// {"id":7,"ts":...,"x":...,"y":...,"flags":217}, the keys in that order),
// to the packed records at target.path. Each value is the text after the
// next ':'; neither checks the keys. Both throw std::runtime_error for a
// line that is not five numbers of the record's types so laid out,
// std::system_error for I/O.
#pragma once

#include "core/bench_case.hpp"

namespace sluice::bench {

// What a program with iostreams does: std::getline per line from a
// std::ifstream, then on a std::istringstream of it, ignore(..., ':') and
// >> for each value; a std::ofstream::write per record.
void jsonl_with_iostream(const target& t);

// The fast hand-written converter: read(2) of 1 MiB (line_chunks), lines
// found with memchr, each value std::from_chars after the next ':' (found
// with memchr) up to a ',' or the '}'; packed_records writes the records.
void jsonl_by_hand(const target& t);

}  // namespace sluice::bench
