// sluice-text2bin: CSV (RFC 4180) as a format_parser.
#pragma once

#include <memory>

#include "text2bin/convert.hpp"
#include "text2bin/format_parser.hpp"
#include "text2bin/record_encoder.hpp"

namespace text2bin {

// A parser of CSV records into `encoder`'s layout; it keeps a reference to
// `encoder`, which must outlive it. What it accepts (docs/sluice-text2bin.md):
// - cells separated by ',', rows ended by "\n" or "\r\n", the last row's
//   line end optional; an empty line is skipped wherever it is;
// - a cell in double quotes may hold ',', line ends and "" (a quote); the
//   text between the quotes is the value. A '"' anywhere else is an error;
// - job.header: a header row names the columns, in any order, each field
//   once (csv_header::detect: the first row is one if a cell of it names a
//   field and is not a number, like "inf"); without one the columns are the
//   schema's fields in order;
// - job.trim_spaces: spaces and tabs around a cell (outside its quotes) are
//   dropped; otherwise they are part of it, and a number refuses them.
// Errors are text_error at the first bad byte: a missing or extra field, an
// unterminated quote, a character after a closing quote, a bad number, a
// header column that names no field, repeats one or leaves one out.
// Cost: whole_records runs memchr over a piece without quotes, a scan of
// 64 bytes at a time over one with them; parse reads a cell with one
// std::from_chars where it is a plain number followed by its separator.
std::unique_ptr<format_parser> make_csv_parser(const job& work, const record_encoder& encoder);

}  // namespace text2bin
