// The large scenario's limits past the page cache on Windows: none yet.
// They are O_DIRECT write(2) and io_uring, which Windows lacks; its
// FILE_FLAG_NO_BUFFERING (what sluice's caching_mode::direct uses there)
// has no raw row of its own.
#include "scenarios/large_file.hpp"

namespace sluice::bench {

void add_direct_limits(bench_case& c, const large_content&,
                       const std::function<std::string(const target&)>&) {
  add_not_run(c, "O_DIRECT write(2), 1 MiB a call [limit]",
              "Windows has no O_DIRECT (FILE_FLAG_NO_BUFFERING has no raw row yet)");
  add_not_run(c, "O_DIRECT io_uring, 8 x 1 MiB in flight [limit]", "io_uring is Linux's");
}

}  // namespace sluice::bench
