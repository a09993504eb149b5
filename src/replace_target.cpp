#include "replace_target.hpp"

#include <linux/magic.h>
#include <sys/statfs.h>

#include <cerrno>
#include <climits>
#include <system_error>

#include "directory.hpp"
#include "sluice/detail/sys.hpp"
#include "sluice/error.hpp"

namespace sluice::detail {
namespace {

constexpr int max_links = 40;  // the kernel's MAXSYMLINKS

[[noreturn]] void refuse(int error, const std::filesystem::path& given, const std::string& why) {
  throw std::system_error(error, std::generic_category(),
                          describe("open", given.native()) + ": " + why);
}

std::string quote(const std::string& path) { return "'" + path + "'"; }

bool on_procfs(const std::filesystem::path& given, const std::string& directory) {
  struct statfs fs {};
  if (sys().statfs(directory.c_str(), &fs) != 0) throw_error(errno, "open", given.native());
  return fs.f_type == PROC_SUPER_MAGIC;
}

struct stat stat_of(const std::filesystem::path& given, const std::string& path) {
  struct stat st {};
  if (sys().stat(path.c_str(), &st) != 0) throw_error(errno, "open", given.native());
  return st;
}

// Whether `owner` may have planted something in a directory with status
// `dir` that the caller (`me`) should not trust: a sticky directory others
// (`writers`: S_IWOTH, or S_IWGRP | S_IWOTH) may write, owned by neither.
bool planted(const struct stat& dir, mode_t writers, uid_t owner, uid_t me) {
  return (dir.st_mode & S_ISVTX) && (dir.st_mode & writers) && owner != me && owner != dir.st_uid;
}

// A link on procfs stands for an open descriptor (/proc/self/fd/1) or a
// process's files: what it reads as is no path to replace ("pipe:[42]", a
// deleted file), and replacing the file at that path would leave the
// descriptor writing to the old one.
void check_not_magic(const std::filesystem::path& given, const std::string& link,
                     const std::string& directory) {
  if (!on_procfs(given, directory)) return;
  refuse(EINVAL, given,
         quote(link) +
             " is a /proc link, which stands for an open descriptor, not a file: atomic_replace "
             "cannot replace it; write to the descriptor instead (file::borrow(STDOUT_FILENO, "
             "...) for standard output)");
}

// fs.protected_symlinks, which following links by hand would bypass.
void check_followable(const std::filesystem::path& given, const std::string& link,
                      const std::string& directory, uid_t owner, uid_t me) {
  if (owner == me || !planted(stat_of(given, directory), S_IWOTH, owner, me)) return;
  refuse(EACCES, given,
         quote(link) +
             " is a symbolic link in a sticky world-writable directory, owned by neither this "
             "user nor the directory's owner: not followed (as fs.protected_symlinks does)");
}

std::string read_link(const std::string& link) {
  char target[PATH_MAX];
  ssize_t size = sys().readlink(link.c_str(), target, sizeof target);
  if (size < 0) throw_error(errno, "readlink", link);
  if (static_cast<std::size_t>(size) == sizeof target) throw_error(ENAMETOOLONG, "readlink", link);
  return {target, static_cast<std::size_t>(size)};
}

}  // namespace

replace_target find_target(const std::filesystem::path& given) {
  uid_t me = sys().geteuid();
  std::filesystem::path at = given;
  for (int links = 0;; ++links) {
    struct stat st {};
    if (sys().lstat(at.c_str(), &st) != 0) {
      if (errno != ENOENT) throw_error(errno, "open", given.native());
      return {at.native(), std::nullopt};  // a new file, or a dangling link's target
    }
    if (S_ISREG(st.st_mode)) return {at.native(), st};
    if (!S_ISLNK(st.st_mode))
      refuse(EINVAL, given,
             "atomic_replace needs a regular file, and " +
                 (at == given ? std::string("this") : quote(at.native())) + " is not one");
    if (links == max_links) refuse(ELOOP, given, "more than 40 symbolic links to follow");
    std::string directory = directory_of(at);
    check_not_magic(given, at.native(), directory);
    check_followable(given, at.native(), directory, st.st_uid, me);
    std::filesystem::path next = read_link(at.native());
    at = next.is_absolute() ? next : directory / next;
  }
}

void check_directory(const std::filesystem::path& given, const replace_target& target,
                     file& directory) {
  if (on_procfs(given, directory.path()))
    refuse(EINVAL, given,
           quote(target.path) + " is in /proc, whose files atomic_replace cannot replace");
  if (!target.existing) return;
  uid_t me = sys().geteuid();
  if (target.existing->st_uid == me) return;
  struct stat dir {};
  if (sys().fstat(directory.native_handle(), &dir) != 0)
    throw std::system_error(errno, std::generic_category(),
                            describe("open", given.native()) + ": cannot stat its directory " +
                                quote(directory.path()));
  if (!planted(dir, S_IWGRP | S_IWOTH, target.existing->st_uid, me)) return;
  refuse(EACCES, given,
         quote(target.path) +
             " is in a sticky directory others may write, owned by neither this user nor the "
             "directory's owner: not replaced (as fs.protected_regular does)");
}

}  // namespace sluice::detail
