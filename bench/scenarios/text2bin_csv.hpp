// sluice-bench "text2bin": the CSV converters a user writes by hand, from
// the CSV of record_text.hpp (a header row "id,ts,x,y,flags", then a row
// per record) to the packed records at target.path. Both throw
// std::runtime_error for a row that is not five numbers of the record's
// types, std::system_error for I/O.
#pragma once

#include "core/bench_case.hpp"

namespace sluice::bench {

// What most programs do: std::getline per line from a std::ifstream, the
// cells split with std::getline(',') on a std::istringstream and read with
// std::stoi, std::stoll, std::stof, std::stod and std::stoul; a
// std::ofstream::write per record.
void csv_with_iostream(const target& t);

// The fast hand-written converter: read(2) of 1 MiB (line_chunks), lines
// found with memchr, std::from_chars per cell; the records written by
// packed_records (a write(2) per 256 KiB).
void csv_by_hand(const target& t);

}  // namespace sluice::bench
