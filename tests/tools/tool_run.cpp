#include "tool_run.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <future>
#include <string>
#include <system_error>

#include "support/child_process.hpp"
#include "support/test_support.hpp"

namespace sluice_test {

program_output run_program(const std::string& program, const std::vector<std::string>& args,
                           int in) {
  pipe_ends out;
  pipe_ends err;
  pid_t child = spawn(program, args, in, out.write_end(), err.write_end());
  out.close_write();
  err.close_write();
  auto printed = std::async(std::launch::async, [&] { return read_to_end(out.read_end()); });
  std::string errors = read_to_end(err.read_end());
  std::string text = printed.get();
  return {wait_for(child), std::move(text), std::move(errors)};
}

tool_result run_tool(const std::string& program, const std::vector<std::string>& args,
                     const tool_limits& limits) {
  // timeout(1) dies of the signal its command died of, if any.
  std::vector<std::string> command = {"-s", "KILL", std::to_string(limits.seconds)};
  if (limits.file_size > 0)
    command.insert(command.end(),
                   {"/usr/bin/prlimit", "--fsize=" + std::to_string(limits.file_size)});
  command.push_back(program);
  command.insert(command.end(), args.begin(), args.end());
  int in = ::open(limits.input.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) throw std::system_error(errno, std::generic_category(), "open " + limits.input);
  program_output run = run_program("/usr/bin/timeout", command, in);
  ::close(in);
  return {run.status, std::move(run.err)};
}

bool exited_with(int status, int code) { return WIFEXITED(status) && WEXITSTATUS(status) == code; }

bool killed(int status) { return WIFSIGNALED(status); }

}  // namespace sluice_test
