// Atomic replacement of a file: the new content is written to a temporary
// file in the target's directory, which only install() puts in the target's
// place. Used by writer_options::atomic_replace.
#pragma once

#include <filesystem>
#include <string>

#include "sluice/file.hpp"
#include "writer/atomic_replace_metadata.hpp"

namespace sluice::detail {

// What install() needs besides the temporary's own file. Every name is
// resolved in `directory`, held from the start: whatever is renamed or
// created in the path meanwhile, the temporary is created, named and
// renamed in the directory that was checked, and that is the one synced.
struct replacement {
  file directory;                // the destination's directory, open for reading
  std::string name;              // the temporary's name in it; empty while it has none (O_TMPFILE)
  std::string destination;       // the name replaced in it
  std::string destination_path;  // its path, for messages: the one given, final links followed
  kept_privileges kept;          // what the temporary gets after the last write
  // A rename that failed otherwise than refused (EACCES): it may have been
  // done all the same (a network filesystem's late error), so on Windows
  // the temporary's handle may hold the destination, and discard() goes by
  // the temporary's name rather than through that handle.
  bool rename_uncertain = false;
};

// An open temporary: `target` takes the writes (its path() is the absolute
// path given, which every error names).
struct temporary {
  file target;
  replacement rest;
};

// Opens a temporary for replacing `target`, before anything is written or
// replaced:
// - `target` is made absolute, and followed while its last component is a
//   symbolic link (find_target in resolve_target.hpp: a link to a /proc
//   link such as /dev/stdout, a link another user may not steer this one
//   with, a loop, a path that is not a regular file and a mount point are
//   refused);
// - its directory is opened for reading (kept for the fsync at close; one
//   that cannot be read, such as one of mode 0300, throws here, naming it)
//   and checked (check_directory: not /proc, not another user's file in
//   /tmp);
// - the temporary is created in it: an unnamed O_TMPFILE where the
//   filesystem supports it and /proc/self/fd can name it (one stat), else
//   `.<name>.sluice-tmp-<8 hex digits>` created exclusively; mode 0600 when
//   it replaces a file, which then gives it its owner, group, extended
//   attributes and mode but for the privileges (copy_metadata), else 0666
//   minus the umask (and the directory's default ACL), as open(2) gives a
//   new file; on Windows (always named) it is created with the old file's
//   security descriptor and attributes (creation_for), else with what its
//   directory gives new files;
// - `direct`: then O_DIRECT is set (fcntl F_SETFL), so that a filesystem
//   that refuses it (EINVAL, "the filesystem refuses O_DIRECT
//   (caching_mode::direct)") is told from one without O_TMPFILE; on
//   Windows, which chooses it only at CreateFileW, the temporary is created
//   with FILE_FLAG_NO_BUFFERING.
// Throws std::system_error naming the absolute target, the temporary or
// link concerned in the text; then nothing was created or changed.
temporary open_temporary(const std::filesystem::path& target, bool direct);

// Makes the temporary's content the target's: the privileges kept for the
// end given (restore_privileges), fsync, a name (linkat from
// /proc/self/fd) if it has none, close, rename over the destination, fsync
// of the directory. On Windows the rename goes through the temporary's own
// handle (rename_held), which is closed after it; no handle is opened on
// it by path. Each step that fails throws naming its operation and the
// target. Up to the rename the target keeps its old content and the
// temporary is left for discard(); after it, the new content is in place,
// and a failed directory sync says so: the rename may not survive a power
// loss.
void install(file& target, replacement& rest);

// Closes the temporary, removes its name if it has one, and closes the
// directory. On Windows, while the temporary is open, it is deleted
// through its own handle before the close (remove_held), by name if that
// fails or the rename may have been done (rename_uncertain). Never throws:
// it runs when the content is being given up, after an error or by choice.
void discard(file& target, replacement& rest) noexcept;

// The prefix of every named temporary for `target`, to recognise leftovers
// of a killed process: ".<filename>.sluice-tmp-", the filename cut so that
// the prefix and 8 more characters fit in NAME_MAX (255 bytes).
std::string temporary_prefix(const std::filesystem::path& target);

}  // namespace sluice::detail
