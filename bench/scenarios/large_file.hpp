// sluice-bench "large": the file its methods write, and the limits past the
// page cache, which need O_DIRECT: direct_limits.cpp adds them where the
// system has it (Linux), direct_limits_win32.cpp lists them as not run.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/bench_case.hpp"

namespace sluice::bench {

inline constexpr std::size_t large_piece_size = 1024 * 1024;

struct large_file {
  std::vector<char> piece;  // written again and again
  std::uint64_t size;       // the file's size; the last piece may be shorter
};
using large_content = std::shared_ptr<const large_file>;  // shared by the methods

// Calls write(data, n) for the pieces that make up the file.
template <class Write>
void write_pieces(const large_file& file, Write&& write) {
  for (std::uint64_t done = 0; done < file.size; done += large_piece_size)
    write(file.piece.data(),
          static_cast<std::size_t>(std::min<std::uint64_t>(large_piece_size, file.size - done)));
}

// Adds to `c` the limits for direct I/O, each observed by `observe`:
// O_DIRECT write(2)s of 1 MiB, and the same 8 in flight through io_uring
// (with liburing); or lists each as not run, saying why.
void add_direct_limits(bench_case& c, const large_content& file,
                       const std::function<std::string(const target&)>& observe);

}  // namespace sluice::bench
