#include "work_dir.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <system_error>

namespace sluice::bench {
namespace {

// What the signal handler removes; filled before the handler is installed.
struct removal_list {
  char dir[PATH_MAX];
  char output[PATH_MAX];
  char companion[PATH_MAX];
  char reference[PATH_MAX];
};
removal_list removal;

constexpr std::array<int, 4> cleanup_signals = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
std::array<struct sigaction, cleanup_signals.size()> previous_actions;

void remove_all() noexcept {
  ::unlink(removal.output);
  ::unlink(removal.companion);
  ::unlink(removal.reference);
  ::rmdir(removal.dir);
}

// Only async-signal-safe calls: unlink, rmdir, signal, raise.
extern "C" void on_signal(int signal_number) {
  remove_all();
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

void install_handlers() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  for (std::size_t i = 0; i < cleanup_signals.size(); ++i)
    sigaction(cleanup_signals[i], &action, &previous_actions[i]);
}

void restore_handlers() {
  for (std::size_t i = 0; i < cleanup_signals.size(); ++i)
    sigaction(cleanup_signals[i], &previous_actions[i], nullptr);
}

void copy_path(char (&to)[PATH_MAX], const std::string& from) {
  std::memcpy(to, from.c_str(), from.size() + 1);
}

}  // namespace

work_dir::work_dir(const std::filesystem::path& parent) {
  std::string name = (parent / "sluice-bench-XXXXXX").native();
  if (name.size() + sizeof "/reference" > PATH_MAX)
    throw std::system_error(ENAMETOOLONG, std::generic_category(),
                            "cannot create a directory in '" + parent.native() + "'");
  if (!::mkdtemp(name.data()))
    throw std::system_error(errno, std::generic_category(),
                            "cannot create a directory in '" + parent.native() + "'");
  path_ = name;
  copy_path(removal.dir, path_);
  copy_path(removal.output, path_ + "/output");
  copy_path(removal.companion, path_ + "/companion");
  copy_path(removal.reference, path_ + "/reference");
  install_handlers();
}

work_dir::~work_dir() {
  remove_output();
  ::unlink(removal.reference);
  if (::rmdir(removal.dir) != 0)
    std::fprintf(stderr, "sluice-bench: could not remove '%s': %s\n", removal.dir,
                 std::strerror(errno));
  restore_handlers();
}

const char* work_dir::output() const noexcept { return removal.output; }
const char* work_dir::companion() const noexcept { return removal.companion; }
const char* work_dir::reference() const noexcept { return removal.reference; }
void work_dir::remove_output() const noexcept {
  std::error_code ignored;
  std::filesystem::remove_all(removal.output, ignored);
  ::unlink(removal.companion);
}

void work_dir::settle() const noexcept {
  int fd = ::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::syncfs(fd);
  ::close(fd);
}

std::filesystem::path default_parent() {
  const char* tmpdir = std::getenv("TMPDIR");
  return tmpdir && *tmpdir ? tmpdir : "/tmp";
}

}  // namespace sluice::bench
