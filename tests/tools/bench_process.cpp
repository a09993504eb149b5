#include "bench_process.hpp"

namespace sluice_test {

bench_run run_bench(const std::vector<std::string>& args) {
  // Under ctest's 300 s limit of the bench tests, so that a hang fails one.
  tool_result run = run_tool(SLUICE_BENCH, args, {.seconds = 280});
  return {run.status, run.err};
}

}  // namespace sluice_test
