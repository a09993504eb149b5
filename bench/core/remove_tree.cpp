#include "core/remove_tree.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace sluice::bench {
namespace {

bool is_dot_or_dot_dot(const char* name) noexcept {
  return name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

// Removes the entries one listing of the open directory `fd` finds; true
// if it removed any.
bool remove_listed(int fd, int depth) noexcept {
  bool removed = false;
  alignas(dirent64) char buffer[4096];
  ssize_t n;
  while ((n = ::getdents64(fd, buffer, sizeof buffer)) > 0) {
    for (ssize_t at = 0; at < n;) {
      const auto* entry = reinterpret_cast<const dirent64*>(buffer + at);
      at += entry->d_reclen;
      if (!is_dot_or_dot_dot(entry->d_name) && remove_tree(fd, entry->d_name, depth))
        removed = true;
    }
  }
  return removed;
}

// Empties the open directory `fd`, listing it again from its start after a
// listing that removed something: entries removed (or made) while a
// listing goes on may hide others from it.
void empty_directory(int fd, int depth) noexcept {
  do {
    if (::lseek(fd, 0, SEEK_SET) != 0) return;
  } while (remove_listed(fd, depth));
}

// Empties and removes the directory `name` of `dir_fd`.
bool remove_directory(int dir_fd, const char* name, int depth) noexcept {
  for (int attempt = 0; attempt < 3; ++attempt) {
    int fd = ::openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT;
    empty_directory(fd, depth - 1);
    ::close(fd);
    if (::unlinkat(dir_fd, name, AT_REMOVEDIR) == 0 || errno == ENOENT) return true;
    if (errno != ENOTEMPTY && errno != EEXIST) return false;  // made again meanwhile
  }
  return false;
}

bool remove_entry(int dir_fd, const char* name, int depth) noexcept {
  if (::unlinkat(dir_fd, name, 0) == 0 || errno == ENOENT) return true;
  // Linux says EISDIR for a directory (POSIX allows EPERM).
  if ((errno != EISDIR && errno != EPERM) || depth == 0) return false;
  return remove_directory(dir_fd, name, depth);
}

}  // namespace

bool remove_tree(int dir_fd, const char* name, int depth) noexcept {
  int saved = errno;
  bool gone = remove_entry(dir_fd, name, depth);
  errno = saved;
  return gone;
}

}  // namespace sluice::bench
