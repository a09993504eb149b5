// Where writer_options::atomic_replace, and a writer with
// durability_mode::all_on_close, put the file: the path given, its final
// symbolic links followed by hand, one held directory at a time, with the
// checks the kernel would make had it followed them, and those that keep a
// file from landing where it must not (a /proc link, what another user
// planted).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "os/sys.hpp"
#include "sluice/file.hpp"

namespace sluice::detail {

// What the path is resolved for.
enum class target_use {
  // atomic_replace: the name is replaced by a rename. A /proc link, and an
  // existing file that is not a regular one or is a mount point, are refused.
  replace,
  // durability_mode::all_on_close: the name is opened. A /proc link is left for
  // open(2) to follow (it stands for a descriptor: /dev/stdout writes to
  // what fd 1 is), and any kind of file is accepted.
  open,
};

// The end of a path's final symbolic links, held open: every check was made
// on these descriptors, and every later step goes through them, so that a
// rename or a new link in the path meanwhile cannot change which file or
// directory is used.
struct resolved_target {
  file directory;                    // O_PATH: where `name` is (its path() names it)
  std::string name;                  // the last component: no symbolic link, but for a /proc link
  std::string path;                  // for messages: `name`'s path, the links' text joined
  file existing;                     // O_PATH | O_NOFOLLOW: what is at `name` now, if anything
  std::optional<file_facts> status;  // its facts (fstat), if anything is there
  bool descriptor_link = false;      // `name` is a /proc link, not followed (target_use::open)
};

// Follows `given` (absolute) while its last component is a symbolic link.
// Each hop opens the link's target's directory (O_PATH, relative to the
// link's own, so that no path is ever longer than a link's text) and what
// is in it (O_PATH | O_NOFOLLOW, which neither blocks nor needs any
// permission on the file), then fstat; a link costs also an fstatfs, a
// readlinkat, and an fstat of its directory when another user owns it.
// Throws std::system_error naming `given`, with the link concerned in the
// text:
// - EINVAL for a link that lives on procfs (/dev/stdout -> /proc/self/fd/1,
//   /proc/<pid>/fd/<n>): it stands for an open descriptor, not a file
//   (target_use::replace only);
// - EACCES for a link owned by neither the caller (effective uid), nor
//   root, nor the owner of what it leads to (the file there, or, if there
//   is none, the directory it would be created in): a user's link must not
//   steer root onto another user's file; and for a link in a sticky
//   world-writable directory owned by neither the caller nor the
//   directory's owner, which the kernel's fs.protected_symlinks would not
//   follow either;
// - ELOOP after 40 links (the kernel's limit);
// - for target_use::replace, EINVAL if what is at the end exists and is
//   not a regular file, and EBUSY if it is a mount point (a file bind-mounted
//   there, as containers mount /etc/resolv.conf), which no rename can
//   replace (one statx);
// - the errno of a failed call otherwise (ENOENT only for a missing
//   directory: a missing last component is a new file).
resolved_target find_target(const std::filesystem::path& given, target_use use);

// Checks the directory `target` goes into, open as `directory`: not procfs
// (EINVAL), and, as the kernel's fs.protected_regular does for O_CREAT, an
// existing file in a sticky directory that its group or others may write is
// replaced only if the caller or the directory's owner owns it (EACCES).
// One fstatfs, and an fstat of the directory when another user owns the file.
void check_directory(const std::filesystem::path& given, const resolved_target& target,
                     const file& directory);

}  // namespace sluice::detail
