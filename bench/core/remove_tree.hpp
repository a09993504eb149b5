// sluice-bench: removing a directory tree, also from a signal handler.
#pragma once

namespace sluice::bench {

// Removes the entry `name` of the directory open as `dir_fd` (an O_PATH
// descriptor will do), whatever it is: a file or a symbolic link is
// unlinked (a link is never followed, so nothing outside the tree is
// touched), a directory is emptied, depth first, down to `depth` levels of
// subdirectories, and removed. Entries that appear while it runs (another
// thread still writing) are removed too, up to three times over. Only
// async-signal-safe calls, no allocation: unlinkat, openat with O_DIRECTORY
// and O_NOFOLLOW, getdents64 into a 4 KiB buffer on the stack per level,
// lseek and close; errno is preserved. Returns true if `name` is gone; what
// cannot be removed (no permission, deeper than `depth`) stays, and so do
// the directories holding it.
bool remove_tree(int dir_fd, const char* name, int depth = 16) noexcept;

}  // namespace sluice::bench
