#include "text2bin/csv_parser.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "text2bin/csv_scan.hpp"
#include "text2bin/text_error.hpp"

namespace text2bin {
namespace {

constexpr std::size_t npos = std::string_view::npos;

bool is_blank(char c) noexcept { return c == ' ' || c == '\t'; }

// A line end at `p`: "\n", or "\r\n"; its length, or 0.
std::size_t line_end_at(const char* p, const char* end) noexcept {
  if (p == end) return 0;
  if (*p == '\n') return 1;
  return *p == '\r' && p + 1 != end && p[1] == '\n' ? 2 : 0;
}

// The byte at `p` as a message names it: 'x', '\x0d', a line end, or the
// end of the input.
std::string shown(const char* p, const char* end) {
  if (p == end) return "the end of the input";
  if (line_end_at(p, end) != 0) return "a line end";
  auto c = static_cast<unsigned char>(*p);
  if (c >= 0x20 && c < 0x7f) return std::string("'") + *p + "'";
  char hex[8];
  std::snprintf(hex, sizeof hex, "'\\x%02x'", c);
  return hex;
}

// A cell's value (the text between the quotes of a quoted cell; without
// the spaces around it with trim_spaces) and the byte after the cell, where
// its separator should be.
struct cell {
  std::string_view value;
  const char* next;
};

// Appends records to `out` a batch at a time (a resize per batch, not per
// record); on the way out `out` keeps the records committed, and no more.
class record_sink {
 public:
  record_sink(std::vector<unsigned char>& out, std::size_t size)
      : out_(out), size_(size), used_(out.size()) {}
  record_sink(const record_sink&) = delete;
  record_sink& operator=(const record_sink&) = delete;
  ~record_sink() { out_.resize(used_); }

  // Room for the next record, valid until commit().
  unsigned char* room() {
    if (out_.size() - used_ < size_) out_.resize(std::max(2 * out_.size(), used_ + 1024 * size_));
    return out_.data() + used_;
  }
  void commit() noexcept { used_ += size_; }

 private:
  std::vector<unsigned char>& out_;
  std::size_t size_;
  std::size_t used_;
};

class csv_parser final : public format_parser {
 public:
  csv_parser(const job& work, const record_encoder& encoder)
      : encoder_(encoder), header_(work.header), trim_(work.trim_spaces) {
    for (std::size_t i = 0; i < encoder.field_count(); ++i) fields_.push_back(i);
    plan_columns();
  }

  std::optional<std::size_t> read_head(std::string_view text, bool at_end) override {
    if (header_ == csv_header::absent) return 0;
    std::size_t row_end = first_row_end(text);
    if (row_end == npos) {
      if (!at_end) return std::nullopt;
      row_end = text.size();
    }
    const char* begin = text.data();
    const char* line_end = nullptr;
    std::vector<cell> cells;
    try {
      cells = header_cells(begin, begin + row_end, line_end);
    } catch (const text_error&) {
      // Not a header: the first record, whose error parse() names.
      if (header_ == csv_header::detect) return 0;
      throw;
    }
    if (header_ == csv_header::detect && !names_a_field(cells)) return 0;
    map_columns(cells, begin, line_end);
    return row_end;
  }

  std::size_t whole_records(std::string_view text, bool at_end) const override {
    return at_end ? text.size() : last_row_end(text);
  }

  void parse(std::string_view piece, bool, std::vector<unsigned char>& out) const override {
    const char* begin = piece.data();
    const char* end = begin + piece.size();
    record_sink sink(out, encoder_.record_size());
    for (const char* p = begin; p != end;) {
      if (std::size_t blank = line_end_at(p, end)) {
        p += blank;
        continue;
      }
      p = parse_record(p, begin, end, sink.room());
      sink.commit();
    }
  }

 private:
  // The record at `p`, into `record`; returns the byte after its line end.
  // A plain number followed by its separator takes one from_chars; anything
  // else (quotes, spaces, a '+', an error) goes the slow way.
  const char* parse_record(const char* p, const char* begin, const char* end,
                           unsigned char* record) const {
    // Locals, which the calls cannot change: kept in registers.
    const field_prefix_encoder* readers = readers_.data();
    const std::size_t last = readers_.size() - 1;
    for (std::size_t column = 0; column < last; ++column) {
      // A quoted cell goes the slow way at once: from_chars would refuse it,
      // slowly for floating point.
      const char* next = p != end && *p == '"' ? nullptr : readers[column](p, end, record);
      if (next != nullptr && next != end && *next == ',') [[likely]] {
        p = next + 1;
        continue;
      }
      p = slow_cell(column, p, begin, end, record);
    }
    const char* next = p != end && *p == '"' ? nullptr : readers[last](p, end, record);
    if (next != nullptr) {
      if (next == end) return end;
      if (std::size_t line_end = line_end_at(next, end)) return next + line_end;
    }
    return slow_cell(last, p, begin, end, record);
  }

  // Column `column`'s cell at `p`, into `record`; returns the byte after
  // its separator.
  const char* slow_cell(std::size_t column, const char* p, const char* begin, const char* end,
                        unsigned char* record) const {
    if (const char* closing = quoted_number(column, after_blanks(p, end), end, record))
      return past_separator(column, after_blanks(closing + 1, end), begin, end);
    cell c = read_cell(p, begin, end);
    encoder_.encode(fields_[column], c.value, static_cast<std::size_t>(c.value.data() - begin),
                    record);
    return past_separator(column, c.next, begin, end);
  }

  // A quoted cell at `p` whose value is a plain number ("12", as writers
  // that quote every cell write it), into `record`: its closing quote, or
  // nullptr for any other cell, which read_cell() then reads.
  const char* quoted_number(std::size_t column, const char* p, const char* end,
                            unsigned char* record) const {
    if (p == end || *p != '"') return nullptr;
    const char* closing = readers_[column](p + 1, end, record);
    if (closing == nullptr || closing == end || *closing != '"') return nullptr;
    if (closing + 1 != end && closing[1] == '"') return nullptr;  // "" in the value
    return closing;
  }

  // `p`, past spaces and tabs with trim_spaces.
  const char* after_blanks(const char* p, const char* end) const {
    if (trim_)
      while (p != end && is_blank(*p)) ++p;
    return p;
  }

  // The cell at `p`. Throws at an unterminated quote or a '"' inside an
  // unquoted cell.
  cell read_cell(const char* p, const char* begin, const char* end) const {
    p = after_blanks(p, end);
    if (p != end && *p == '"') return quoted_cell(p, begin, end);
    const char* q = p;
    while (q != end && *q != ',' && *q != '\n' && *q != '\r' && *q != '"') ++q;
    if (q != end && *q == '"')
      throw text_error(static_cast<std::size_t>(q - begin),
                       "expected a cell quoted whole or not at all, found '\"' inside an "
                       "unquoted cell");
    const char* value_end = q;
    if (trim_)
      while (value_end != p && is_blank(value_end[-1])) --value_end;
    return {std::string_view(p, static_cast<std::size_t>(value_end - p)), q};
  }

  // The quoted cell whose opening quote is at `open`.
  cell quoted_cell(const char* open, const char* begin, const char* end) const {
    const char* q = open + 1;
    for (;;) {
      q = static_cast<const char*>(std::memchr(q, '"', static_cast<std::size_t>(end - q)));
      if (q == nullptr)
        throw text_error(static_cast<std::size_t>(open - begin),
                         "unterminated quote: the cell that starts here has no closing '\"'");
      if (q + 1 == end || q[1] != '"') break;
      q += 2;  // "" stands for a quote
    }
    return {std::string_view(open + 1, static_cast<std::size_t>(q - open - 1)),
            after_blanks(q + 1, end)};
  }

  // Checks the separator at `p` after column `column`'s cell: ',' before
  // another column, a line end (or the end of the input) after the last.
  // Returns the byte after it.
  const char* past_separator(std::size_t column, const char* p, const char* begin,
                             const char* end) const {
    if (column + 1 < fields_.size()) {
      if (p != end && *p == ',') return p + 1;
    } else if (p == end) {
      return p;
    } else if (std::size_t line_end = line_end_at(p, end)) {
      return p + line_end;
    }
    refuse_separator(column, p, begin, end);
  }

  // The error for what is at `p` where past_separator() wanted a separator.
  [[noreturn, gnu::noinline]] void refuse_separator(std::size_t column, const char* p,
                                                    const char* begin, const char* end) const {
    auto at = static_cast<std::size_t>(p - begin);
    bool row_ends = p == end || line_end_at(p, end) != 0;
    const std::string after = encoder_.describe(fields_[column]);
    if (column + 1 < fields_.size()) {
      if (row_ends)
        throw text_error(at, expected_fields() + ", found " + std::to_string(column + 1) + ": " +
                                 encoder_.describe(fields_[column + 1]) + " is missing");
      throw text_error(at, "expected ',' after " + after + ", found " + shown(p, end));
    }
    if (*p == ',')
      throw text_error(at, expected_fields() + ", found more: ',' after " + after + ", the last");
    throw text_error(at, "expected a line end after " + after + ", found " + shown(p, end));
  }

  std::string expected_fields() const {
    return "expected " + std::to_string(fields_.size()) + " fields";
  }

  // The cells of the first row, [begin, row_end); `line_end` is set to
  // where the row's line end is (or row_end).
  std::vector<cell> header_cells(const char* begin, const char* row_end,
                                 const char*& line_end) const {
    std::vector<cell> cells;
    const char* p = begin;
    if (line_end_at(p, row_end) != 0 || p == row_end) {
      line_end = p;
      return cells;
    }
    for (;;) {
      cells.push_back(read_cell(p, begin, row_end));
      p = cells.back().next;
      if (p == row_end || line_end_at(p, row_end) != 0) break;
      if (*p != ',')
        throw text_error(static_cast<std::size_t>(p - begin),
                         "expected ',' or a line end after header column " +
                             std::to_string(cells.size()) + ", found " + shown(p, row_end));
      ++p;
    }
    line_end = p;
    return cells;
  }

  // Whether a cell names a field and is not a number ("inf" may be both).
  bool names_a_field(const std::vector<cell>& cells) const {
    for (const cell& c : cells) {
      if (encoder_.find(c.value) == record_encoder::npos) continue;
      double number;
      const char* end = c.value.data() + c.value.size();
      auto read = std::from_chars(c.value.data(), end, number);
      if (read.ec != std::errc{} || read.ptr != end) return true;
    }
    return false;
  }

  // The columns' fields from the header's cells: each names a field, once,
  // and every field has one.
  void map_columns(const std::vector<cell>& cells, const char* begin, const char* line_end) {
    if (cells.empty())
      throw text_error(0, "expected a header row naming the columns, found an empty line");
    std::vector<std::size_t> fields;
    std::vector<bool> seen(encoder_.field_count());
    for (const cell& c : cells) {
      auto at = static_cast<std::size_t>(c.value.data() - begin);
      std::string column =
          "header column " + std::to_string(fields.size() + 1) + " '" + std::string(c.value) + "'";
      std::size_t field = encoder_.find(c.value);
      if (field == record_encoder::npos)
        throw text_error(at, column + " names no field of the schema (" + field_names() + ")");
      if (seen[field]) throw text_error(at, column + " names a field an earlier column names");
      seen[field] = true;
      fields.push_back(field);
    }
    for (std::size_t field = 0; field < seen.size(); ++field)
      if (!seen[field])
        throw text_error(static_cast<std::size_t>(line_end - begin),
                         "the header has no column for " + encoder_.describe(field));
    fields_ = std::move(fields);
    plan_columns();
  }

  // Each column's fast reader, for its field.
  void plan_columns() {
    readers_.clear();
    for (std::size_t field : fields_) readers_.push_back(encoder_.prefix_encoder(field));
  }

  // "id, ts, x": the schema's field names.
  std::string field_names() const {
    std::string names;
    for (const auto& f : encoder_.layout().fields) names += (names.empty() ? "" : ", ") + f.name;
    return names;
  }

  const record_encoder& encoder_;
  csv_header header_;
  bool trim_;
  std::vector<std::size_t> fields_;            // column i holds field fields_[i]
  std::vector<field_prefix_encoder> readers_;  // column i's fast reader
};

}  // namespace

std::unique_ptr<format_parser> make_csv_parser(const job& work, const record_encoder& encoder) {
  return std::make_unique<csv_parser>(work, encoder);
}

}  // namespace text2bin
