// sluice-bench: the records of records.hpp as text, the way sluice-bin2text
// writes them with the schema id:i32,ts:i64,x:f32,y:f64,flags:u16 (see
// docs/sluice-bin2text.md): CSV with a header row, JSON Lines, or XML in a
// <records> element, every number in the shortest form that reads back to
// the same value (std::to_chars). The text2bin scenario's input, which its
// converters turn back into the packed records.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/bench_case.hpp"
#include "scenarios/records.hpp"

namespace sluice::bench {

enum class text_form { csv, jsonl, xml };

// "CSV", "JSON Lines", "XML": for titles and row names.
std::string_view form_name(text_form form);

// What comes before the first record: the CSV header row "id,ts,x,y,flags\n",
// nothing for JSON Lines, the XML declaration and "<records>\n".
std::string_view text_head(text_form form);
// What comes after the last record: "</records>\n" for XML, else nothing.
std::string_view text_tail(text_form form);

// The most one record's text takes.
inline constexpr std::size_t record_text_room = 160;

// Writes the text of `r`, line end included, at `out` (record_text_room
// bytes at least); returns its end.
char* write_record_text(char* out, text_form form, const record& r);

// A text of varied_record(0), varied_record(1)...: how many records, and
// its size in bytes, head and tail included.
struct record_text_size {
  std::uint64_t records;
  std::uint64_t bytes;
};

// The fewest records whose text, head and tail included, reaches `requested`
// bytes (at least one record).
record_text_size size_record_text(text_form form, std::uint64_t requested);

// The maker of the text of the first `records` varied records: written
// with write(2)s of 1 MiB (bench_case::input). Throws std::system_error.
input_maker record_text_input(text_form form, std::uint64_t records);

}  // namespace sluice::bench
