// sluice-bench: the output of the text2bin scenario's hand converter and
// library peers: packed records gathered in a 256 KiB buffer and written
// with one write(2) each time it fills, so that those converters differ
// in their parsing only.
#pragma once

#include <cstddef>
#include <vector>

#include "core/io.hpp"
#include "scenarios/records.hpp"

namespace sluice::bench {

class packed_records {
 public:
  // Creates or truncates t.path. Throws std::system_error.
  explicit packed_records(const target& t);

  // Appends `r`; a full buffer is written first. Throws std::system_error.
  void add(const record& r) {
    if (buffer_.size() - filled_ < record_size) write_buffer();
    store_record(buffer_.data() + filled_, r);
    filled_ += record_size;
  }

  // Writes what is buffered, fdatasyncs when the target asks for it,
  // closes. Throws std::system_error.
  void finish();

 private:
  void write_buffer();

  raw_file out_;
  bool sync_;
  std::vector<unsigned char> buffer_;
  std::size_t filled_ = 0;
};

}  // namespace sluice::bench
