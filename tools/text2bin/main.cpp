// sluice-text2bin: XML, CSV or JSON Lines to fixed-layout binary records.
// See docs/sluice-text2bin.md.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <string>

#include "common/output.hpp"
#include "common/schema.hpp"
#include "common/standard_streams.hpp"
#include "common/text_format.hpp"
#include "text2bin/convert.hpp"

namespace {

constexpr const char* example =
    "Example:\n"
    "  sluice-text2bin --schema id:i32,ts:i64,x:f32,y:f64,flags:u16 --format csv \\\n"
    "      --output points.bin points.csv\n"
    "Types: i8 u8 i16 u16 i32 u32 i64 u64 f32 f64, packed, little-endian unless\n"
    "--big-endian; the inverse of sluice-bin2text with the same options. INPUT may\n"
    "be '-' or absent (standard input) or any stream (a pipe, a FIFO), read to its\n"
    "end. Bad input is reported with its line, column and byte offset (exit status\n"
    "1); a file output then is left as it was, as it is for any failure.\n";

text2bin::csv_header header_of(const std::string& name) {
  if (name == "present") return text2bin::csv_header::present;
  if (name == "absent") return text2bin::csv_header::absent;
  return text2bin::csv_header::detect;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Converts XML, CSV or JSON Lines to fixed-layout binary records."};
  std::string schema_text, format_text = "xml", header_text = "detect";
  text2bin::job work;
  work.input = "-";
  app.add_option("input", work.input,
                 "The text: a file, '-' for standard input (the default), or a pipe or FIFO");
  app.add_option("--schema", schema_text, "The record's fields, name:type,...")->required();
  app.add_option("--format", format_text, "xml, csv or jsonl (default xml)");
  app.add_option("-o,--output", work.output,
                 "Output file, replaced only once complete (default, '-', /dev/stdout or "
                 "/dev/fd/1: standard output)");
  app.add_flag("--big-endian", work.big_endian, "Write big-endian records");
  app.add_option("--threads", work.threads, "Threads parsing records (default: one per CPU)")
      ->check(CLI::Range(1u, 256u));
  app.add_option("--csv-header", header_text,
                 "CSV: detect (default: a first row naming fields is a header), present or "
                 "absent")
      ->check(CLI::IsMember({"detect", "present", "absent"}));
  app.add_flag("--trim-spaces", work.trim_spaces,
               "CSV: spaces and tabs around a cell are not part of it");
  app.add_option("--record-element", work.record_element,
                 "XML: the name of a record's element (default record)");
  app.footer(example);
  CLI11_PARSE(app, argc, argv);
  sluice_tools::ignore_file_size_signal();
  try {
    sluice_tools::check_output(work.output, work.input);
    work.layout = sluice_tools::parse_schema(schema_text);
    work.format = sluice_tools::parse_format(format_text);
    work.header = header_of(header_text);
    work.progress = sluice_tools::standard_error_is_terminal();
    text2bin::run(work);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sluice-text2bin: %s\n", e.what());
    return 1;
  }
  return 0;
}
