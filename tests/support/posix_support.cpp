// The POSIX-only helpers of test_support.hpp: descriptors, processes,
// users, /proc, the umask. Not compiled for Windows.
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <utility>

#include "support/test_support.hpp"

namespace sluice_test {

bool asleep(pid_t tid) {
  std::ifstream stat("/proc/self/task/" + std::to_string(tid) + "/stat");
  std::string line;
  std::getline(stat, line);
  auto after_name = line.rfind(')');
  return after_name != std::string::npos && line.compare(after_name, 3, ") S") == 0;
}

std::string read_to_end(int fd, std::size_t limit) {
  std::string got;
  char buffer[65536];
  while (got.size() < limit) {
    ssize_t n = ::read(fd, buffer, std::min(sizeof buffer, limit - got.size()));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got.append(buffer, static_cast<std::size_t>(n));
  }
  return got;
}

std::string as_user(uid_t uid, gid_t gid, const std::function<std::string()>& body) {
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) return std::string("pipe: ") + std::strerror(errno);
  pid_t child = ::fork();
  if (child == 0) {
    ::close(ends[0]);
    std::string said;
    if (::setgroups(0, nullptr) != 0 || ::setgid(gid) != 0 || ::setuid(uid) != 0)
      said = "cannot become " + std::to_string(uid) + ": " + std::strerror(errno);
    else
      said = body();
    for (std::size_t at = 0; at < said.size();) {
      ssize_t n = ::write(ends[1], said.data() + at, said.size() - at);
      if (n <= 0) break;
      at += static_cast<std::size_t>(n);
    }
    ::_exit(0);
  }
  ::close(ends[1]);
  std::string said =
      child > 0 ? read_to_end(ends[0]) : "fork: " + std::string(std::strerror(errno));
  ::close(ends[0]);
  if (child > 0) ::waitpid(child, nullptr, 0);
  return said;
}

std::string needs_root() {
  return ::geteuid() == 0 ? "" : "needs root, to run part of the test as another user";
}

std::string needs_other_users(const std::filesystem::path& dir) {
  if (auto why = needs_root(); !why.empty()) return why;
  std::string refused = as_user(65534, 65534, [&]() -> std::string {
    return ::access(dir.parent_path().c_str(), X_OK) == 0 ? "" : std::strerror(errno);
  });
  if (refused.empty()) return "";
  return "other users cannot reach " + dir.parent_path().native() +
         ", where the test's directory is (" + refused + "): a directory on the way is private";
}

std::optional<std::string> run_command(const std::string& command) {
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return std::nullopt;
  std::string out = read_to_end(::fileno(pipe));
  int status = ::pclose(pipe);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return out;
}

std::string needs_tool(const std::string& name) {
  if (run_command("command -v " + name + " >/dev/null")) return "";
  return name + " is not installed (Debian packages acl and attr)";
}

pipe_ends::pipe_ends(int flags) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC | flags) != 0) throw std::system_error(errno, std::generic_category());
  read_ = fds[0];
  write_ = fds[1];
}

pipe_ends::~pipe_ends() {
  close_read();
  close_write();
}

int pipe_ends::take_write_end() noexcept { return std::exchange(write_, -1); }

void pipe_ends::close_read() noexcept {
  if (read_ >= 0) ::close(std::exchange(read_, -1));
}

void pipe_ends::close_write() noexcept {
  if (write_ >= 0) ::close(std::exchange(write_, -1));
}

bool write_pieces(int fd, std::string_view text, std::size_t piece) {
  for (std::size_t at = 0; at < text.size();) {
    ssize_t n = ::write(fd, text.data() + at, std::min(piece, text.size() - at));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    at += static_cast<std::size_t>(n);
  }
  return true;
}

sender::sender(std::function<int()> open_target, std::string text, std::size_t piece)
    : thread_([open_target = std::move(open_target), text = std::move(text), piece] {
        sigset_t pipe_signal;
        sigemptyset(&pipe_signal);
        sigaddset(&pipe_signal, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
        int fd = open_target();
        if (fd < 0) return;
        write_pieces(fd, text, piece);
        ::close(fd);
      }) {}

sender::~sender() { join(); }

void sender::join() {
  if (thread_.joinable()) thread_.join();
}

paced_writer::paced_writer(int fd, std::vector<std::string> messages)
    : thread_([this, fd, messages = std::move(messages)] {
        for (std::size_t i = 0; i < messages.size() && !gave_up_; ++i) {
          if (!write_pieces(fd, messages[i], messages[i].size())) break;
          if (i + 1 == messages.size()) break;
          std::unique_lock lock(mutex_);
          gave_up_ = !acknowledged_.wait_for(lock, std::chrono::seconds(30),
                                             [&] { return acknowledgements_ > i; });
        }
        ::close(fd);
      }) {}

paced_writer::~paced_writer() {
  if (thread_.joinable()) thread_.join();
}

void paced_writer::received() {
  std::lock_guard lock(mutex_);
  ++acknowledgements_;
  acknowledged_.notify_one();
}

bool paced_writer::gave_up() {
  if (thread_.joinable()) thread_.join();
  return gave_up_;
}

scoped_umask::scoped_umask(mode_t mask) : previous_(::umask(mask)) {}
scoped_umask::~scoped_umask() { ::umask(previous_); }

}  // namespace sluice_test
