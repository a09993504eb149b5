#include "common/progress_line.hpp"

#include <algorithm>
#include <cstdio>

namespace sluice_tools {

progress_line::progress_line(std::string_view tool, bool wanted, std::uint64_t total)
    : tool_(tool), shown_(wanted && total >= shown_from), total_(total) {}

void progress_line::show(std::uint64_t done) {
  if (!shown_) return;
  done = std::min(done, total_);
  int percent = static_cast<int>(done * 100 / total_);
  if (percent == last_) return;
  last_ = percent;
  std::fprintf(stderr, "\r%s: %3d%% of %llu MiB", tool_.c_str(), percent,
               static_cast<unsigned long long>(total_ >> 20));
  if (done == total_) std::fputc('\n', stderr);
}

}  // namespace sluice_tools
