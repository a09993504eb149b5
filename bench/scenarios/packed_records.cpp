#include "scenarios/packed_records.hpp"

namespace sluice::bench {

packed_records::packed_records(const target& t)
    : out_(t.path), sync_(t.sync), buffer_(big_buffer_size) {}

void packed_records::write_buffer() {
  out_.write_all(reinterpret_cast<const char*>(buffer_.data()), filled_);
  filled_ = 0;
}

void packed_records::finish() {
  write_buffer();
  out_.finish(sync_);
}

}  // namespace sluice::bench
