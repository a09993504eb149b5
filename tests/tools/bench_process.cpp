#include "bench_process.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <future>

#include "support/child_process.hpp"
#include "support/test_support.hpp"

namespace sluice_test {

bench_run run_bench(const std::vector<std::string>& args) {
  pipe_ends err;
  pipe_ends out;
  pid_t child = spawn(SLUICE_BENCH, args, STDIN_FILENO, out.write_end(), err.write_end());
  out.close_write();
  err.close_write();
  auto printed = std::async(std::launch::async, [&] { return read_to_end(out.read_end()); });
  std::string errors = read_to_end(err.read_end());
  printed.get();
  return {wait_for(child), errors};
}

bool exited_with(int status, int code) { return WIFEXITED(status) && WEXITSTATUS(status) == code; }

}  // namespace sluice_test
