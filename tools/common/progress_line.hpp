// The sluice tools: how far a long conversion has gone, on stderr.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace sluice_tools {

// "sluice-bin2text:  42% of 1024 MiB" on stderr, redrawn in place (a
// carriage return first) each time the whole percentage grows, and ended by
// a newline at 100%. Shown only where it is wanted (the caller's stderr is a
// terminal, the input's size is known) and the input is large: 64 MiB or
// more, below which a conversion is over before a line would help. Costs one
// fprintf per percent, nothing otherwise; output errors are ignored, as
// stderr's are.
class progress_line {
 public:
  static constexpr std::uint64_t shown_from = std::uint64_t{64} << 20;

  // For `tool` (the name the line starts with) converting `total` bytes.
  progress_line(std::string_view tool, bool wanted, std::uint64_t total);

  // `done` bytes of the total are done (more than the total counts as all).
  void show(std::uint64_t done);

 private:
  std::string tool_;
  bool shown_;
  std::uint64_t total_;
  int last_ = -1;  // the percentage drawn last
};

}  // namespace sluice_tools
