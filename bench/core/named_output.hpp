// sluice-bench: the files the user names for its reports (--json, --report,
// each chart in --svg DIR) and the charts' directory itself, opened before
// the first run so that a bad path fails at once, never truncated before
// their new content is complete, and never written through a link that
// another user planted.
#pragma once

#include <filesystem>
#include <sluice/writer.hpp>
#include <string>

namespace sluice::bench {

// A writer on `path`, whose close() puts the new content there:
// - a regular file, or a name that does not exist yet: an atomic replace
//   (writer_options::atomic_replace), so the path keeps its old content, its
//   mode, owner and ACL until close() renames the complete new file over
//   it, and a run that fails or is stopped leaves it as it was. What the
//   library refuses stays refused: a link or file another user planted in a
//   sticky directory such as /tmp, a link of another user onto a third
//   one's file, a directory, a mount point;
// - a FIFO or a character device (a terminal, /dev/null, /dev/stdout, a
//   shell's >(jq .)), at the path itself or behind a link of the caller's or
//   root's: written in place as the writer goes, opened now without
//   blocking, so that a FIFO no process reads is an error (ENXIO) rather
//   than a wait before the first run.
// Costs an lstat and a stat more than the writer's own calls. Throws
// std::system_error naming the path.
sluice::writer open_named_output(const std::string& path);

// Whether `a` and `b` name one file: the same device and inode if both
// exist, else the same absolute path once the links of their existing
// parts are followed (std::filesystem::weakly_canonical). Never throws:
// a path that cannot be examined is taken as its own.
bool same_file(const std::string& a, const std::string& b) noexcept;

// Refuses (std::system_error, EACCES) a `dir` that is a symbolic link
// owned by neither the caller, nor root, nor the owner of the directory it
// leads to, or one in a sticky world-writable directory (such as /tmp) that
// neither the caller nor that directory's owner owns: another user must
// not choose where the charts go; and (ENOENT, ELOOP...) a link that leads
// nowhere, which no directory can be made at. Anything else passes, a
// missing `dir` included. An lstat, and for a link a stat of it and of its
// directory.
void check_chart_directory(const std::filesystem::path& dir);

}  // namespace sluice::bench
