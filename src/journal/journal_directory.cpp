#include "journal/journal_directory.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "os/directory.hpp"
#include "os/error_messages.hpp"
#include "os/sys.hpp"
#include "os/transfer.hpp"

namespace sluice::detail {
namespace {

// Appends the names of one getdents64 buffer.
void parse_entries(const char* buffer, std::size_t size, std::vector<std::string>& names) {
  for (std::size_t at = 0; at < size;) {
    dirent64 entry;
    std::size_t fixed = offsetof(dirent64, d_name);
    std::memcpy(&entry, buffer + at, fixed);
    std::string name(buffer + at + fixed);
    if (name != "." && name != "..") names.push_back(std::move(name));
    at += entry.d_reclen;
  }
}

// What a file that is not a regular one is, for messages.
const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

[[noreturn]] void throw_not_regular(const std::filesystem::path& path, const char* kind,
                                    const char* what) {
  throw std::system_error(EINVAL, std::generic_category(),
                          describe("open", path.native()) + ": it is " + kind + ", not " + what);
}

// openat(dir, name, flags | O_NONBLOCK ...), tried again while a lease on
// the file is being broken (EWOULDBLOCK): see open_regular().
int open_without_blocking(int dir, const std::string& name, int flags, mode_t mode) {
  auto pause = std::chrono::milliseconds(1);
  for (;;) {
    int fd = restart_interrupted([&] {
      return sys().openat(dir, name.c_str(), flags | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC, mode);
    });
    if (fd >= 0 || errno != EWOULDBLOCK) return fd;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(100));
  }
}

}  // namespace

journal_directory::journal_directory(const std::filesystem::path& path)
    : handle_(open_directory(path)), path_(path) {}

std::vector<std::string> journal_directory::list() const {
  int fd = restart_interrupted([&] {
    return sys().openat(handle_.native_handle(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  });
  if (fd < 0) throw_error(errno, "open directory", path_.native());
  file listing(fd, path_.native());
  std::vector<std::string> names;
  std::vector<char> buffer(32 * 1024);
  for (;;) {
    ssize_t n = sys().getdents64(fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw_error(errno, "list directory", path_.native());
    if (n == 0) break;
    parse_entries(buffer.data(), static_cast<std::size_t>(n), names);
  }
  listing.close();
  return names;
}

file journal_directory::open_regular(std::string_view name, int flags, const char* what,
                                     mode_t mode) const {
  std::filesystem::path path = path_of(name);
  int fd = open_without_blocking(handle_.native_handle(), std::string(name), flags, mode);
  if (fd < 0 && errno == ELOOP) throw_not_regular(path, "a symbolic link", what);
  if (fd < 0) throw_error(errno, "open", path.native());
  file opened(fd, path.native());
  struct stat st {};
  if (sys().fstat(fd, &st) != 0) throw_error(errno, "stat", path.native());
  if (!S_ISREG(st.st_mode)) throw_not_regular(path, kind_of(st.st_mode), what);
  // Clears O_NONBLOCK, the one file status flag it was opened with.
  if (sys().setfl(fd, 0) != 0) throw_error(errno, "fcntl", path.native());
  return opened;
}

void journal_directory::rename(std::string_view from, std::string_view to) const {
  int dir = handle_.native_handle();
  if (sys().renameat(dir, std::string(from).c_str(), dir, std::string(to).c_str()) != 0)
    throw_error(errno, "rename", path_of(from).native());
}

void journal_directory::remove(std::string_view name) const {
  if (sys().unlinkat(handle_.native_handle(), std::string(name).c_str(), 0) != 0)
    throw_error(errno, "remove", path_of(name).native());
}

void journal_directory::sync() const {
  if (sys().fsync(handle_.native_handle()) != 0)
    throw_error(errno, "fsync directory", path_.native());
}

bool make_directory(const std::filesystem::path& dir) {
  bool created = sys().mkdir(dir.c_str(), 0700) == 0;
  if (!created) {
    if (errno != EEXIST) throw_error(errno, "create directory", dir.native());
    open_directory(dir).close();  // ENOTDIR if it is something else
  }
  // Also when it existed: its creator may have died before this sync.
  std::filesystem::path parent = dir.parent_path();
  sync_directory(parent.empty() ? "." : parent);
  return created;
}

}  // namespace sluice::detail
