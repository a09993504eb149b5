#include "core/named_output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <system_error>

namespace sluice::bench {
namespace {

bool is_stream(mode_t mode) { return S_ISFIFO(mode) || S_ISCHR(mode); }

[[noreturn]] void refuse(int error, const std::string& path, const std::string& why) {
  throw std::system_error(error, std::generic_category(), "'" + path + "' " + why);
}

// Whether `path` is a stream to write in place: one itself, or at the end
// of a link that the caller or root owns (/dev/stdout, /dev/fd/63).
bool names_stream(const std::string& path) {
  struct stat at {};
  if (::lstat(path.c_str(), &at) != 0) return false;
  if (is_stream(at.st_mode)) return true;
  if (!S_ISLNK(at.st_mode) || (at.st_uid != ::geteuid() && at.st_uid != 0)) return false;
  struct stat target {};
  return ::stat(path.c_str(), &target) == 0 && is_stream(target.st_mode);
}

// The stream at `path`, opened for writing without blocking (nor
// creating, nor truncating anything), then made blocking again.
sluice::file open_stream(const std::string& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    int error = errno;
    if (error == ENXIO)
      refuse(error, path, "has no reader: start the program that reads this FIFO first");
    refuse(error, path, "cannot be opened for writing");
  }
  sluice::file out(fd, path);
  struct stat st {};
  if (::fstat(fd, &st) != 0) refuse(errno, path, "cannot be examined");
  if (!is_stream(st.st_mode)) refuse(EINVAL, path, "was a FIFO or a device, and is no longer one");
  int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
    refuse(errno, path, "cannot be made blocking");
  return out;
}

// A link in a sticky world-writable directory, owned by neither the
// caller nor the directory's owner (fs.protected_symlinks' rule).
bool planted_in_sticky(const std::filesystem::path& link, uid_t owner, uid_t me) {
  struct stat parent {};
  std::filesystem::path dir = link.parent_path().empty() ? "." : link.parent_path();
  if (::stat(dir.c_str(), &parent) != 0) return false;
  return (parent.st_mode & S_ISVTX) && (parent.st_mode & S_IWOTH) && owner != me &&
         owner != parent.st_uid;
}

}  // namespace

sluice::writer open_named_output(const std::string& path) {
  if (names_stream(path)) return sluice::writer(open_stream(path));
  return sluice::writer(path, {.atomic_replace = true});
}

void check_chart_directory(const std::filesystem::path& dir) {
  struct stat link {};
  if (::lstat(dir.c_str(), &link) != 0 || !S_ISLNK(link.st_mode)) return;
  uid_t me = ::geteuid();
  if (planted_in_sticky(dir, link.st_uid, me))
    refuse(EACCES, dir.native(),
           "is a symbolic link in a sticky world-writable directory, owned by uid " +
               std::to_string(link.st_uid) +
               ", neither this user nor the directory's owner: not followed");
  struct stat target {};
  if (::stat(dir.c_str(), &target) != 0)
    refuse(errno, dir.native(),
           "is a symbolic link that leads nowhere: make what it leads to, or give another DIR");
  if (link.st_uid == me || link.st_uid == 0 || target.st_uid == link.st_uid) return;
  refuse(EACCES, dir.native(),
         "is a symbolic link owned by uid " + std::to_string(link.st_uid) +
             " to a directory it does not own: not followed (a link is followed only if this "
             "user, root or the owner of what it leads to owns it)");
}

}  // namespace sluice::bench
