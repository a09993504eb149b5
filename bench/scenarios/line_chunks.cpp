#include "scenarios/line_chunks.hpp"

#include <cstring>
#include <string_view>

namespace sluice::bench {

namespace {
constexpr std::size_t chunk_size = 1024 * 1024;
}

line_chunks::line_chunks(const char* path) : in_(path), buffer_(chunk_size + 1) {}

std::string_view line_chunks::next() {
  if (start_ < filled_) buffer_[start_] = under_nul_;
  std::memmove(buffer_.data(), buffer_.data() + start_, filled_ - start_);
  filled_ -= start_;
  start_ = 0;
  for (;;) {
    if (filled_ + 1 == buffer_.size()) buffer_.resize(buffer_.size() * 2);  // a long line
    std::size_t n = in_.read_some(buffer_.data() + filled_, buffer_.size() - 1 - filled_);
    std::size_t searched = filled_;
    filled_ += n;
    std::size_t end = filled_;  // at the end of the input, all that is left
    if (n > 0) {
      std::size_t newline = std::string_view(buffer_.data() + searched, n).rfind('\n');
      if (newline == std::string_view::npos) continue;
      end = searched + newline + 1;
    }
    start_ = end;
    under_nul_ = buffer_[end];
    buffer_[end] = '\0';
    return {buffer_.data(), end};
  }
}

}  // namespace sluice::bench
