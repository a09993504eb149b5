// sluice-bench: the fresh directory the runs write in, and its removal.
//
// Everything the bench writes goes there: the output of the current run
// (a file, or the directory a journal or a database writes), its companion
// (a second file some runs write beside it), the reference output of the
// current case, and the input a case's methods read. The whole directory
// goes away, recursively, when the work_dir is destroyed (normal exit or an
// error), and also on SIGINT, SIGTERM, SIGHUP and SIGPIPE (stdout piped to
// a program that quit): the handler removes the tree with async-signal-safe
// calls only (remove_tree.hpp), never following a symbolic link out of it,
// then lets the signal end the process, so that the exit status shows it.
// One work_dir per process. On Windows (work_dir_win32.cpp) the same with
// std::filesystem, on SIGINT, SIGBREAK and SIGTERM.
#pragma once

#include <filesystem>
#include <string>

namespace sluice::bench {

class work_dir {
 public:
  // Creates parent/sluice-bench-XXXXXX (mkdtemp). Throws std::system_error
  // naming `parent` if that fails, and (EACCES) before creating anything if
  // `parent` belongs to another user than the caller or root, or its group
  // or others may write it and it is not sticky: another user could then
  // rename the work directory and put a link in its place.
  explicit work_dir(const std::filesystem::path& parent);
  work_dir(const work_dir&) = delete;
  work_dir& operator=(const work_dir&) = delete;
  ~work_dir();  // removes the directory and all in it, restores the signal handlers

  const std::string& path() const noexcept { return path_; }
  const char* output() const noexcept;     // where every run writes
  const char* companion() const noexcept;  // a second file a run may write
  const char* reference() const noexcept;  // the first good output of the current case
  const char* input() const noexcept;      // what the current case's methods read
  // Removes output() (a file, or the directory a journal method writes,
  // with all in it) and companion(), if present.
  void remove_output() const noexcept;
  // Writes back what the last run left dirty on this filesystem (syncfs), so
  // that no run pays for the writeback, or the freed blocks, of the one before.
  void settle() const noexcept;

 private:
  std::string path_;
};

// $TMPDIR when set and not empty, else /tmp.
std::filesystem::path default_parent();

}  // namespace sluice::bench
