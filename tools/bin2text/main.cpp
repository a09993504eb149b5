// sluice-bin2text: fixed-layout binary records to XML, CSV or JSON Lines.
// See docs/sluice-bin2text.md.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

#include "bin2text/convert.hpp"
#include "common/output.hpp"
#include "common/schema.hpp"
#include "common/standard_streams.hpp"
#include "common/text_format.hpp"

namespace {

constexpr const char* example =
    "Example:\n"
    "  sluice-bin2text --schema id:i32,ts:i64,x:f32,y:f64,flags:u16 --format csv \\\n"
    "      --output points.csv points.bin\n"
    "Types: i8 u8 i16 u16 i32 u32 i64 u64 f32 f64, packed, little-endian unless\n"
    "--big-endian. Floating point is written in the shortest form that reads back to\n"
    "the same value. INPUT may be '-' (standard input) or any stream (a pipe, a FIFO,\n"
    "a device), read to its end. A file output appears complete or not at all;\n"
    "standard output is written as the conversion goes, and a failure leaves the\n"
    "records before it there, without the document's end (exit status 1).\n";

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Converts fixed-layout binary records to XML, CSV or JSON Lines."};
  std::string schema_text, format_text = "xml";
  bin2text::job work;
  app.add_option("input", work.input,
                 "The binary records: a file, '-' for standard input, or a pipe, FIFO or device")
      ->required();
  app.add_option("--schema", schema_text, "The record's fields, name:type,...")->required();
  app.add_option("--format", format_text, "xml, csv or jsonl (default xml)");
  app.add_option("-o,--output", work.output,
                 "Output file, replaced only once complete (default, '-', /dev/stdout or "
                 "/dev/fd/1: standard output)");
  app.add_flag("--big-endian", work.big_endian, "The records are big-endian");
  app.add_option("--threads", work.threads, "Threads formatting records (default: one per CPU)")
      ->check(CLI::Range(1u, 256u));
  app.footer(example);
  CLI11_PARSE(app, argc, argv);
  sluice_tools::ignore_file_size_signal();
  try {
    sluice_tools::check_output(work.output, work.input);
    work.layout = sluice_tools::parse_schema(schema_text);
    work.format = sluice_tools::parse_format(format_text);
    work.progress = sluice_tools::standard_error_is_terminal();
    bin2text::run(work);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sluice-bin2text: %s\n", e.what());
    return 1;
  }
  return 0;
}
