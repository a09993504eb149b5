// The lock that keeps a journal directory to one writer, or to any number of
// read-only openers, at a time (docs/journal-format.md, "One writer at a
// time").
#pragma once

#include "journal/journal_directory.hpp"
#include "sluice/file.hpp"

namespace sluice::detail {

enum class journal_access {
  write,      // an exclusive lock: no other opener of any kind
  read_only,  // a shared lock: other read-only openers, no writer
};

// Takes the lock of the journal in `dir` for `access`: a flock, LOCK_EX or
// LOCK_SH, never waiting, on its lock file (lock_file_name), which a writer
// creates if missing (0666 before the umask, like the segments: whoever
// may read the journal may hold a read-only lock on it). The returned file
// holds the lock until it is closed; the kernel drops it when the process
// dies, so a crash leaves no stale lock. flock locks belong to the open
// file description: a second open in the same process is refused like one
// in another process. A read-only journal whose directory has no lock file
// (never opened by a writer of this format) takes no lock: the returned
// file is not open. Cost: an openat, an fstat, an fcntl and a flock; when
// refused, reads of /proc/locks, and of /proc/self/fdinfo/<fd> and
// /proc/self/mountinfo for the device /proc/locks names the file by (on
// btrfs not the one fstat reports).
// Throws std::system_error: EWOULDBLOCK naming the directory, the holder's
// pid where /proc/locks tells it, and whether it writes or reads; EINVAL
// if the lock file is not a regular file; the errno of a failed call.
file lock_journal(const journal_directory& dir, journal_access access);

}  // namespace sluice::detail
