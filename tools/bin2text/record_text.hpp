// sluice-bin2text: one record's text, laid out once per conversion.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "common/schema.hpp"
#include "common/text_format.hpp"

namespace bin2text {

// The text of records in one of the output formats. Built once from the
// schema: the fixed text around each value (`<record id="`, `","x":`...) is
// made up front, so a record is a run of short copies and std::to_chars
// calls into memory the caller has sized with max_size(). Nothing here
// allocates, throws or checks bounds per field.
class record_text {
 public:
  // Throws std::invalid_argument for a layout without fields (parse_schema
  // never makes one).
  record_text(const sluice_tools::schema& layout, sluice_tools::format form, bool big_endian);

  // The most bytes one record's text can take.
  std::size_t max_size() const noexcept { return max_size_; }

  // Writes the text of the record at `record` (layout.record_size bytes) to
  // `out`, which has room for max_size() bytes; returns the end of the text.
  char* write(char* out, const unsigned char* record) const noexcept;

 private:
  struct step {
    std::string before;  // the text between the previous value and this one
    sluice_tools::field value;
  };
  std::vector<step> steps_;
  std::string after_;  // the text after the last value
  sluice_tools::format form_;
  bool big_endian_;
  std::size_t max_size_ = 0;
};

}  // namespace bin2text
