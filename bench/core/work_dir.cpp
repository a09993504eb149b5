#include "core/work_dir.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

#include "core/remove_tree.hpp"

namespace sluice::bench {
namespace {

constexpr char name_pattern[] = "sluice-bench-XXXXXX";

// What the signal handler removes, and the paths the runs use; filled
// before the handler is installed.
struct removal_list {
  int parent = -1;                 // O_PATH descriptor of the directory holding it
  char name[sizeof name_pattern];  // the work directory's name there
  int dir = -1;                    // O_PATH descriptor of the work directory
  char output[PATH_MAX];
  char companion[PATH_MAX];
  char reference[PATH_MAX];
  char input[PATH_MAX];
};
removal_list removal;

constexpr std::array<int, 4> cleanup_signals = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
std::array<struct sigaction, cleanup_signals.size()> previous_actions;

// Only async-signal-safe calls: remove_tree's, signal, raise.
extern "C" void on_signal(int signal_number) {
  remove_tree(removal.parent, removal.name);
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

void install_handlers() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  for (int signal_number : cleanup_signals) sigaddset(&action.sa_mask, signal_number);
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

[[noreturn]] void cannot_create(const std::filesystem::path& parent, int error) {
  throw std::system_error(error, std::generic_category(),
                          "cannot create a directory in '" + parent.native() + "'");
}

// Why another user could rename an entry of the directory `st` describes
// and put a link in its place, or "" if none can: it belongs to neither
// the caller nor root, or its group or others may write it without the
// sticky bit. `it` names the directory ("it", or "'/a' above it").
std::string open_to_others(const struct stat& st, const std::string& it) {
  if (st.st_uid != ::geteuid() && st.st_uid != 0)
    return it + " belongs to uid " + std::to_string(st.st_uid);
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
    return "its group or others may write " + it + " and it is not sticky (chmod +t, as /tmp is)";
  return "";
}

[[noreturn]] void refuse(const std::filesystem::path& parent, const std::string& why) {
  throw std::system_error(EACCES, std::generic_category(),
                          "will not work in '" + parent.native() + "': " + why +
                              ", so another user could swap the work directory for a link "
                              "while the runs write there; give a --dir of your own");
}

// A descriptor closed when this goes.
class held_fd {
 public:
  explicit held_fd(int fd) noexcept : fd_(fd) {}
  held_fd(const held_fd&) = delete;
  held_fd& operator=(const held_fd&) = delete;
  ~held_fd() { ::close(fd_); }

 private:
  int fd_;
};

// Refuses a parent in which another user could rename the work directory
// away and put a link in its place while the runs write there by path, or
// a parent below a directory (up to /) where another user could do the
// same to the way there. The directories checked are those `fd` (the
// parent, held) and its ".." lead to, wherever links in the path led;
// messages name them by the parent's canonical path.
void check_parent(const std::filesystem::path& parent, int fd) {
  struct stat root {};
  if (::stat("/", &root) != 0) cannot_create(parent, errno);
  std::error_code ignored;
  std::filesystem::path named = std::filesystem::weakly_canonical(parent, ignored);
  std::optional<held_fd> above;  // the directory over the last one checked
  for (int dir = fd;; named = named.parent_path()) {
    struct stat st {};
    if (::fstat(dir, &st) != 0) cannot_create(parent, errno);
    std::string why = open_to_others(st, above ? "'" + named.native() + "' above it" : "it");
    if (!why.empty()) refuse(parent, why);
    if (st.st_dev == root.st_dev && st.st_ino == root.st_ino) return;
    dir = ::openat(dir, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) cannot_create(parent, errno);
    above.emplace(dir);
  }
}

}  // namespace

work_dir::work_dir(const std::filesystem::path& parent) {
  std::string name = (parent / name_pattern).native();
  if (name.size() + sizeof "/companion" > PATH_MAX) cannot_create(parent, ENAMETOOLONG);
  removal.parent = ::open(parent.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (removal.parent < 0) cannot_create(parent, errno);
  try {
    check_parent(parent, removal.parent);
  } catch (...) {
    ::close(std::exchange(removal.parent, -1));
    throw;
  }
  if (!::mkdtemp(name.data())) {
    int error = errno;
    ::close(std::exchange(removal.parent, -1));
    cannot_create(parent, error);
  }
  path_ = name;
  std::memcpy(removal.name, name.c_str() + name.size() + 1 - sizeof name_pattern,
              sizeof name_pattern);
  removal.dir = ::open(path_.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  copy_path(removal.output, path_ + "/output");
  copy_path(removal.companion, path_ + "/companion");
  copy_path(removal.reference, path_ + "/reference");
  copy_path(removal.input, path_ + "/input");
  install_handlers();
}

work_dir::~work_dir() {
  if (!remove_tree(removal.parent, removal.name))
    std::fprintf(stderr, "sluice-bench: could not remove '%s' and all in it\n", path_.c_str());
  restore_handlers();
  ::close(std::exchange(removal.dir, -1));
  ::close(std::exchange(removal.parent, -1));
}

const char* work_dir::output() const noexcept { return removal.output; }
const char* work_dir::companion() const noexcept { return removal.companion; }
const char* work_dir::reference() const noexcept { return removal.reference; }
const char* work_dir::input() const noexcept { return removal.input; }

void work_dir::remove_output() const noexcept {
  remove_tree(removal.dir, "output");
  remove_tree(removal.dir, "companion");
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
