// sluice-bench stopped by a signal in the middle of a run: SIGINT (Ctrl-C)
// or SIGTERM, during the journal scenario (a directory of segments, or a
// database's files) and during bin2text (an input file beside the output):
// the process dies of that signal, and --dir and $TMPDIR hold nothing.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "support/child_process.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
namespace fs = std::filesystem;

// The names inside `dir`, "" if none.
std::string listing(const fs::path& dir) {
  std::string names;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    names += fs::relative(entry.path(), dir).native() + " ";
  return names;
}

// Whether the run under way in the work directory under `parent` has
// written its output: a file, or a directory holding an entry whose name
// contains `wanted` (any entry if empty).
bool holds_output(const fs::path& parent, const std::string& wanted) {
  std::error_code error;
  for (const auto& work : fs::directory_iterator(parent, error)) {
    fs::path output = work.path() / "output";
    if (wanted.empty() && fs::is_regular_file(output, error)) return true;
    for (const auto& entry : fs::directory_iterator(output, error))
      if (entry.path().filename().native().find(wanted) != std::string::npos) return true;
  }
  return false;
}

// Sets an environment variable for the lifetime of the object.
class scoped_env {
 public:
  scoped_env(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) previous_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~scoped_env() {
    if (previous_.empty())
      ::unsetenv(name_);
    else
      ::setenv(name_, previous_.c_str(), 1);
  }
  scoped_env(const scoped_env&) = delete;
  scoped_env& operator=(const scoped_env&) = delete;

 private:
  const char* name_;
  std::string previous_;
};

// Runs sluice-bench with `args` and --dir `parent`, sends it `signal_number`
// once a run's output is there (holds_output), and returns its wait status.
int signalled_run(std::vector<std::string> args, const fs::path& parent, const std::string& wanted,
                  int signal_number) {
  args.insert(args.end(), {"--dir", parent.native(), "--repeat", "1000"});
  pid_t child = spawn(SLUICE_BENCH, args, STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO);
  auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  int status = 0;
  while (!holds_output(parent, wanted)) {
    if (::waitpid(child, &status, WNOHANG) == child) {
      ADD_FAILURE() << "sluice-bench ended before it wrote anything, status " << status;
      return status;
    }
    if (std::chrono::steady_clock::now() > give_up) {
      ADD_FAILURE() << "no output in " << parent << " after two minutes";
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ::kill(child, signal_number);
  return wait_for(child);
}

struct stop_case {
  std::string name;
  std::vector<std::string> args;
  std::string wanted;  // see holds_output
  int signal_number;
  bool needs_database_peer = false;
};

#ifdef SLUICE_BENCH_HAVE_DATABASE_PEER
constexpr bool have_database_peer = true;
#else
constexpr bool have_database_peer = false;
#endif

// gtest names a case by its name, not by its bytes.
void PrintTo(const stop_case& c, std::ostream* out) { *out << c.name; }

class bench_signal : public ::testing::TestWithParam<stop_case> {};

TEST_P(bench_signal, the_signal_ends_the_run_and_nothing_is_left) {
  const stop_case& c = GetParam();
  if (c.needs_database_peer && !have_database_peer)
    GTEST_SKIP() << "sluice-bench was built without RocksDB and LevelDB (not found, or "
                    "SLUICE_BENCH_JOURNAL_PEERS=OFF as in the tsan preset): no database to stop";
  temp_dir dir;
  fs::create_directory(dir / "work");
  fs::create_directory(dir / "tmp");
  scoped_env tmpdir("TMPDIR", (dir / "tmp").native());
  int status = signalled_run(c.args, dir / "work", c.wanted, c.signal_number);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == c.signal_number)
      << "status " << status << ", not signal " << c.signal_number;
  EXPECT_EQ(listing(dir / "work"), "") << "left in --dir";
  EXPECT_EQ(listing(dir / "tmp"), "") << "left in $TMPDIR";
}

// The journal's first run writes output/log; sluice::journal's, segments
// (*.journal); RocksDB's and LevelDB's, a database directory (CURRENT...).
INSTANTIATE_TEST_SUITE_P(
    scenarios, bench_signal,
    ::testing::Values(
        stop_case{"journal_log_sigint", {"--scenario", "journal"}, "", SIGINT},
        stop_case{"journal_log_sigterm", {"--scenario", "journal"}, "", SIGTERM},
        stop_case{"journal_segments_sigint", {"--scenario", "journal"}, ".journal", SIGINT},
        stop_case{"database_sigterm", {"--scenario", "journal"}, "CURRENT", SIGTERM, true},
        stop_case{"bin2text_sigint", {"--scenario", "bin2text", "--size", "8M"}, "", SIGINT},
        stop_case{"bin2text_sigterm", {"--scenario", "bin2text", "--size", "8M"}, "", SIGTERM}),
    [](const ::testing::TestParamInfo<stop_case>& info) { return info.param.name; });

}  // namespace
