// Atomic replacement of a file: the new content is written to a temporary
// file in the target's directory, which only install() puts in the target's
// place. Used by writer_options::atomic_replace.
#pragma once

#include <filesystem>
#include <string>

#include "replace_metadata.hpp"
#include "sluice/file.hpp"

namespace sluice::detail {

// What install() needs besides the temporary's own file.
struct replacement {
  std::string name;         // the temporary's path; empty while it has none (O_TMPFILE)
  std::string destination;  // the path replaced: the one given, final symbolic links followed
  file directory;           // destination's directory, open from the start for the final fsync
  kept_privileges kept;     // what the writes may take away, given back at install()
};

// An open temporary: `target` takes the writes (its path() is the absolute
// path given, for messages).
struct temporary {
  file target;
  replacement rest;
};

// Opens a temporary for replacing `target`, before anything is written or
// replaced:
// - `target` is made absolute, and followed while its last component is a
//   symbolic link (find_target in replace_target.hpp: a link to a /proc
//   link such as /dev/stdout, an untrusted link in /tmp, a loop and a path
//   that is not a regular file are refused);
// - its directory is opened (kept for the fsync at close; a directory that
//   cannot be opened, such as one of mode 0300, throws here, naming it) and
//   checked (check_directory: not /proc, not another user's file in /tmp);
// - the temporary is created in it: an unnamed O_TMPFILE where the
//   filesystem supports it and /proc/self/fd can name it (one stat), else
//   `.<name>.sluice-tmp-<8 hex digits>` created exclusively; mode 0600 when
//   it replaces a file, which then gives it its owner, group, extended
//   attributes and exact mode (copy_metadata), else 0666 minus the umask
//   (and the directory's default ACL), as open(2) gives a new file;
// - `direct` adds O_DIRECT.
// Throws std::system_error naming the absolute target; then nothing was
// created or changed.
temporary open_temporary(const std::filesystem::path& target, bool direct);

// Makes the temporary's content the target's: the privileges the writes
// took away given back (restore_privileges), fsync, a name (linkat) if it
// has none, close, rename over the destination, fsync of the directory.
// Each step that fails throws naming its operation. Up to the rename the
// target keeps its old content and the temporary is left for discard();
// after it, the new content is in place, and a failed directory sync says
// so: the rename may not survive a power loss.
void install(file& target, replacement& rest);

// Closes the temporary and the directory and removes the temporary's name,
// if it has one. Never throws: it runs when the content is being given up,
// after an error or by choice.
void discard(file& target, replacement& rest) noexcept;

// The prefix of every named temporary for `target`, to recognise leftovers
// of a killed process: ".<filename>.sluice-tmp-", the filename cut so that
// the prefix and 8 more characters fit in NAME_MAX (255 bytes).
std::string temporary_prefix(const std::filesystem::path& target);

}  // namespace sluice::detail
