#include "scenarios/text2bin_csv.hpp"

#include <charconv>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "peers/ifstream.hpp"
#include "peers/ofstream.hpp"
#include "scenarios/line_chunks.hpp"
#include "scenarios/packed_records.hpp"
#include "scenarios/record_text.hpp"

namespace sluice::bench {
namespace {

// The header row, without its line end.
std::string_view header_row() {
  std::string_view head = text_head(text_form::csv);
  return head.substr(0, head.size() - 1);
}

[[noreturn]] void bad_row(std::uint64_t row, std::string_view what) {
  throw std::runtime_error("CSV row " + std::to_string(row) + ": " + std::string(what));
}

// The next cell of `cells` read by `read` (std::stoi...), which throws
// std::invalid_argument or std::out_of_range on bad text.
template <class Read>
auto next_cell(std::istringstream& cells, std::string& cell, Read read) {
  if (!std::getline(cells, cell, ',')) throw std::invalid_argument("a missing cell");
  return read(cell);
}

record parse_row_with_iostream(const std::string& line, std::string& cell) {
  std::istringstream cells(line);
  record r;
  r.id = next_cell(cells, cell, [](const std::string& s) { return std::stoi(s); });
  r.ts = next_cell(cells, cell, [](const std::string& s) { return std::stoll(s); });
  r.x = next_cell(cells, cell, [](const std::string& s) { return std::stof(s); });
  r.y = next_cell(cells, cell, [](const std::string& s) { return std::stod(s); });
  unsigned long flags = next_cell(cells, cell, [](const std::string& s) { return std::stoul(s); });
  if (flags > 0xffff) throw std::out_of_range("flags");
  r.flags = static_cast<std::uint16_t>(flags);
  return r;
}

// The cell at `at` as a T by std::from_chars, then `separator`: where the
// next cell starts, or nullptr if the cell or the separator is not there.
template <class T>
const char* cell_then(const char* at, const char* end, T& value, char separator) {
  auto [next, error] = std::from_chars(at, end, value);
  if (error != std::errc() || next == end || *next != separator) return nullptr;
  return next + 1;
}

// Reads the row [at, line_end) into `r`: false if it is not five cells of
// the record's types.
bool parse_row_by_hand(const char* at, const char* line_end, record& r) {
  at = cell_then(at, line_end, r.id, ',');
  if (at) at = cell_then(at, line_end, r.ts, ',');
  if (at) at = cell_then(at, line_end, r.x, ',');
  if (at) at = cell_then(at, line_end, r.y, ',');
  if (!at) return false;
  auto [next, error] = std::from_chars(at, line_end, r.flags);
  return error == std::errc() && next == line_end;
}

}  // namespace

void csv_with_iostream(const target& t) {
  input_ifstream file(t.input, 0);
  std::ifstream& in = file.get();
  std::ofstream out(t.path, std::ios::binary);
  std::string line, cell;
  if (!std::getline(in, line) || line != header_row()) bad_row(1, "expected the header row");
  for (std::uint64_t row = 2; std::getline(in, line); ++row) {
    record r;
    try {
      r = parse_row_with_iostream(line, cell);
    } catch (const std::logic_error& e) {
      bad_row(row, std::string("expected five numbers: ") + e.what());
    }
    unsigned char packed[record_size];
    store_record(packed, r);
    out.write(reinterpret_cast<const char*>(packed), record_size);
  }
  file.finish();
  finish(out, t);
}

void csv_by_hand(const target& t) {
  packed_records out(t);
  std::uint64_t row = 0;
  for_each_line(t.input, [&](std::string_view line) {
    record r;
    if (++row == 1) {
      if (line != header_row()) bad_row(row, "expected the header row");
    } else if (parse_row_by_hand(line.data(), line.data() + line.size(), r)) {
      out.add(r);
    } else {
      bad_row(row, "expected five numbers");
    }
  });
  out.finish();
}

}  // namespace sluice::bench
