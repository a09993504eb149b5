// Where writer_options::atomic_replace puts the new file: the path given,
// its final symbolic links followed by hand, with the checks the kernel
// would make had it followed them, and those that keep a replacement from
// landing where it must not (a /proc link, another user's file in /tmp).
#pragma once

#include <sys/stat.h>

#include <filesystem>
#include <optional>
#include <string>

#include "sluice/file.hpp"

namespace sluice::detail {

struct replace_target {
  std::string path;                     // absolute; its last component is no symbolic link
  std::optional<struct stat> existing;  // what is there now (lstat), if anything
};

// Follows `given` (absolute) while its last component is a symbolic link,
// hop by hop: lstat, then readlink, a relative target taken from the link's
// directory; one statfs per link, and a stat of its directory when another
// user owns it. Throws std::system_error naming `given`:
// - EINVAL for a link that lives on procfs (/dev/stdout -> /proc/self/fd/1,
//   /proc/<pid>/fd/<n>): it stands for an open descriptor, not a file;
// - EACCES for a link in a sticky world-writable directory owned by neither
//   the caller (effective uid) nor the directory's owner, which the kernel's
//   fs.protected_symlinks would not follow either;
// - ELOOP after 40 links (the kernel's limit);
// - EINVAL if what is at the end exists and is not a regular file;
// - lstat's or readlink's errno otherwise (ENOENT only for a missing
//   directory: a missing last component is a new file).
replace_target find_target(const std::filesystem::path& given);

// Checks the directory `target` goes into, open as `directory`: not procfs
// (EINVAL), and, as the kernel's fs.protected_regular does for O_CREAT, an
// existing file in a sticky directory that its group or others may write is
// replaced only if the caller or the directory's owner owns it (EACCES).
// One statfs, and an fstat of the directory when another user owns the file.
void check_directory(const std::filesystem::path& given, const replace_target& target,
                     file& directory);

}  // namespace sluice::detail
