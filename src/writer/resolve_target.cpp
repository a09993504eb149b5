#include "writer/resolve_target.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <climits>
#include <system_error>
#include <utility>

#include "os/error_messages.hpp"
#include "os/path_text.hpp"
#include "os/sys.hpp"
#include "os/transfer.hpp"

namespace sluice::detail {
namespace {

constexpr auto path_only = open_request::access::path_only;

constexpr int max_links = 40;  // the kernel's MAXSYMLINKS

std::string quote(const std::string& path) { return "'" + path + "'"; }

// "sluice: open '<given>': <why>: <strerror>"
[[noreturn]] void refuse(int error, const std::filesystem::path& given, const std::string& why) {
  throw std::system_error(error, std::generic_category(),
                          describe("open", path_text(given)) + ": " + why);
}

[[noreturn]] void cannot(int error, const std::filesystem::path& given, const std::string& what) {
  refuse(error, given, "cannot " + what);
}

// Directory `path` (absolute, or relative to `from`) opened O_PATH: it
// needs no permission on the directory itself, as following a path does not.
file open_directory_at(detail::handle from, const std::string& path, std::string shown,
                       const std::filesystem::path& given) {
  detail::handle fd = restart_interrupted(
      [&] { return sys().open(from, path.c_str(), {.mode = path_only, .directory = true}); });
  if (fd == detail::no_handle()) {
    int error = errno;
    cannot(error, given, "open the directory " + quote(shown));
  }
  return file(fd, std::move(shown));
}

// The place `target` (a link's text, or the path given) names: its
// directory, opened relative to `from` (the link's own) unless `target` is
// absolute, and its last component ("." for a path ending in '/').
resolved_target open_hop(const std::filesystem::path& target, file* from,
                         const std::filesystem::path& given) {
  resolved_target hop;
  std::filesystem::path parent = target.parent_path();
  std::filesystem::path shown = target.is_absolute() ? target : from->path() / target;
  hop.name = path_text(target.filename());
  if (hop.name.empty()) hop.name.push_back('.');
  hop.path = path_text(shown);
  if (parent.empty())
    hop.directory = std::move(*from);  // beside the link
  else
    hop.directory =
        open_directory_at(target.is_absolute() ? working_directory : from->native_handle(),
                          path_text(parent), path_text(shown.parent_path()), given);
  return hop;
}

// Opens what is at `hop.name` now (O_PATH | O_NOFOLLOW: whatever it is,
// without blocking or following it) and takes its fstat; nothing there
// leaves both empty.
void look(resolved_target& hop, const std::filesystem::path& given) {
  std::string shown = hop.path;  // before the open: nothing may throw between it and `existing`
  detail::handle fd = restart_interrupted([&] {
    return sys().open(hop.directory.native_handle(), hop.name.c_str(),
                      {.mode = path_only, .no_follow = true});
  });
  if (fd == detail::no_handle()) {
    int error = errno;
    if (error == ENOENT) return;  // a new file, or a dangling link's target
    cannot(error, given, "open " + quote(hop.path));
  }
  hop.existing = file(fd, std::move(shown));
  file_facts facts;
  if (sys().facts(fd, &facts) != 0) {
    int error = errno;
    cannot(error, given, "stat " + quote(hop.path));
  }
  hop.status = facts;
}

file_facts status_of(const file& directory, const std::filesystem::path& given) {
  file_facts facts;
  if (sys().facts(directory.native_handle(), &facts) != 0) {
    int error = errno;
    cannot(error, given, "stat the directory " + quote(directory.path()));
  }
  return facts;
}

bool on_procfs(const file& directory, const std::filesystem::path& given) {
  int procfs = sys().on_procfs(directory.native_handle());
  if (procfs < 0) {
    int error = errno;
    cannot(error, given, "statfs the directory " + quote(directory.path()));
  }
  return procfs == 1;
}

// Whether `owner` may have planted something in a directory with status
// `dir` that the caller (`me`) should not trust: a sticky directory others
// (`writers`: S_IWOTH, or S_IWGRP | S_IWOTH) may write, owned by neither.
bool planted(const file_facts& dir, mode_t writers, uid_t owner, uid_t me) {
  return (dir.mode & S_ISVTX) && (dir.mode & writers) && owner != me && owner != dir.owner;
}

// A link on procfs stands for an open descriptor (/proc/self/fd/1) or a
// process's files: what it reads as is no path to replace ("pipe:[42]", a
// deleted file), and replacing the file at that path would leave the
// descriptor writing to the old one.
[[noreturn]] void refuse_descriptor_link(const std::filesystem::path& given,
                                         const std::string& link) {
  refuse(EINVAL, given,
         quote(link) +
             " is a /proc link, which stands for an open descriptor, not a file: atomic_replace "
             "cannot replace it; write to the descriptor instead (file::borrow(STDOUT_FILENO, "
             "...) for standard output)");
}

// fs.protected_symlinks, which following links by hand would bypass.
void check_followable(const std::filesystem::path& given, const resolved_target& link, uid_t me) {
  uid_t owner = link.status->owner;
  if (owner == me || !planted(status_of(link.directory, given), S_IWOTH, owner, me)) return;
  refuse(EACCES, given,
         quote(link.path) +
             " is a symbolic link in a sticky world-writable directory, owned by neither this "
             "user nor the directory's owner: not followed (as fs.protected_symlinks does)");
}

// A link followed: its path and owner, checked against what it leads to.
struct followed_link {
  std::string path;
  uid_t owner;
};

// A link is trusted if the caller or root owns it, or the owner of what it
// leads to (the file there, else the directory a new file would go in): a
// user may point a link at the user's own files, never steer another user
// (root) onto a third one's.
void check_owner(const std::filesystem::path& given, const followed_link& link,
                 const resolved_target& next, uid_t me) {
  if (link.owner == me || link.owner == 0) return;
  uid_t owner = next.status ? next.status->owner : status_of(next.directory, given).owner;
  if (link.owner == owner) return;
  std::string leads_to =
      next.status ? ", owned by uid " + std::to_string(owner)
                  : ", which does not exist, in a directory owned by uid " + std::to_string(owner);
  refuse(EACCES, given,
         quote(link.path) + " is a symbolic link owned by uid " + std::to_string(link.owner) +
             " to " + quote(next.path) + leads_to +
             ": not followed (a link is followed only if this user, root or the owner of what "
             "it leads to owns it)");
}

// The text of the link `link.existing` holds (readlinkat of the O_PATH
// descriptor: that very link, whatever its name points to by now).
std::string read_link(const std::filesystem::path& given, const resolved_target& link) {
  char text[PATH_MAX];
  ssize_t size = sys().read_link(link.existing.native_handle(), text, sizeof text);
  if (size < 0) {
    int error = errno;
    cannot(error, given, "read the symbolic link " + quote(link.path));
  }
  if (static_cast<std::size_t>(size) == sizeof text)
    cannot(ENAMETOOLONG, given, "read the symbolic link " + quote(link.path));
  return {text, static_cast<std::size_t>(size)};
}

// What a rename can replace: a regular file that is not a mount point.
void check_replaceable(const std::filesystem::path& given, const resolved_target& target) {
  if (!target.status) return;
  if (target.status->type != file_type::regular)
    refuse(EINVAL, given,
           "atomic_replace needs a regular file, and " +
               (target.path == path_text(given) ? std::string("this") : quote(target.path)) +
               " is not one");
  int mount_root = sys().mount_root(target.existing.native_handle());
  if (mount_root < 0) {
    int error = errno;
    cannot(error, given, "statx " + quote(target.path));
  }
  if (mount_root == 0) return;
  refuse(EBUSY, given,
         quote(target.path) +
             " is a mount point (a file mounted over it, as containers mount /etc/resolv.conf): "
             "a rename cannot replace it; write to it in place instead");
}

}  // namespace

resolved_target find_target(const std::filesystem::path& given, target_use use) {
  uid_t me = sys().effective_user();
  resolved_target at = open_hop(given, nullptr, given);
  look(at, given);
  for (int links = 0; at.status && at.status->type == file_type::symlink; ++links) {
    if (on_procfs(at.directory, given)) {
      if (use == target_use::replace) refuse_descriptor_link(given, at.path);
      at.descriptor_link = true;  // open(2) follows it to the descriptor's file
      return at;
    }
    if (links == max_links) refuse(ELOOP, given, "more than 40 symbolic links to follow");
    check_followable(given, at, me);
    followed_link link{at.path, at.status->owner};
    resolved_target next = open_hop(read_link(given, at), &at.directory, given);
    look(next, given);
    check_owner(given, link, next, me);
    at = std::move(next);
  }
  if (use == target_use::replace) check_replaceable(given, at);
  return at;
}

void check_directory(const std::filesystem::path& given, const resolved_target& target,
                     const file& directory) {
  if (on_procfs(directory, given))
    refuse(EINVAL, given,
           quote(target.path) + " is in /proc, whose files atomic_replace cannot replace");
  if (!target.status) return;
  uid_t me = sys().effective_user();
  if (target.status->owner == me) return;
  if (!planted(status_of(directory, given), S_IWGRP | S_IWOTH, target.status->owner, me)) return;
  refuse(EACCES, given,
         quote(target.path) +
             " is in a sticky directory others may write, owned by neither this user nor the "
             "directory's owner: not replaced (as fs.protected_regular does)");
}

}  // namespace sluice::detail
