// The journal's directory, held open for the journal's life. Every name in
// it is resolved through that descriptor (openat, renameat, unlinkat,
// fsync), never through the path again: a directory renamed, or a path
// pointed elsewhere, while the journal is open changes nothing of where it
// writes. The path names it in messages only.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "os/sys.hpp"
#include "sluice/file.hpp"

namespace sluice::detail {

class journal_directory {
 public:
  // Opens directory `path` (O_RDONLY | O_DIRECTORY, one open). Throws
  // system_error "open directory '<path>'": ENOENT, ENOTDIR, EACCES...
  explicit journal_directory(const std::filesystem::path& path);

  const std::filesystem::path& path() const noexcept { return path_; }
  // Its descriptor, for calls about the directory itself (its filesystem).
  handle native_handle() const noexcept { return handle_.native_handle(); }
  std::filesystem::path path_of(std::string_view name) const { return path_ / name; }

  // The names in it, "." and ".." left out: listed through a handle of its
  // own (an open of "."), so that listing moves no shared offset.
  std::vector<std::string> list() const;

  // Opens file `name` as `how` says (read or read_write, create, exclusive,
  // permissions) and checks that it is a regular file,
  // `what` saying what it should be in the message otherwise ("a journal
  // segment"). It never blocks and never follows a symbolic link: opened
  // non_blocking and no_follow, so that a FIFO in its place is refused at
  // once; non_blocking is cleared once the file is known to be regular. A
  // lease on the file (a file server's delegation) makes a non-blocking
  // open fail with EWOULDBLOCK while the kernel breaks it: the open is
  // tried again, 1 to 100 ms apart, until the kernel's lease-break-time
  // has let it go, as a blocking open would wait. Cost: an open, a facts
  // and a set_state (openat, fstat, fcntl). Throws system_error: EINVAL naming what the file is
  // instead (a FIFO, a directory, a symbolic link...), or the errno of a
  // failed call.
  file open_regular(std::string_view name, open_request how, const char* what) const;

  // renameat and unlinkat inside it. Throw system_error naming the
  // operation and the path of `from` (`name`).
  void rename(std::string_view from, std::string_view to) const;
  void remove(std::string_view name) const;

  // Makes its entries durable: fsync through its descriptor. Throws
  // system_error "fsync directory '<path>'".
  void sync() const;

 private:
  file handle_;
  std::filesystem::path path_;
};

// Creates directory `dir` with permissions 0700 (the owner only, before the
// umask) if it is missing, then syncs its parent either way; returns true
// if it created it. Throws system_error (ENOTDIR if `dir` is a file).
bool make_directory(const std::filesystem::path& dir);

}  // namespace sluice::detail
