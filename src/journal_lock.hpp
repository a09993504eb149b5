// The lock that keeps a journal directory to one writer, or to any number of
// read-only openers, at a time (docs/journal-format.md, "One writer").
#pragma once

#include <filesystem>

#include "sluice/file.hpp"

namespace sluice::detail {

enum class journal_access {
  write,      // an exclusive lock: no other opener of any kind
  read_only,  // a shared lock: other read-only openers, no writer
};

// Opens directory `dir` and takes its lock for `access` (flock, LOCK_EX or
// LOCK_SH, never waiting). The returned directory holds the lock until it is
// closed; the kernel drops it when the process dies, so a crash leaves no
// stale lock. flock locks belong to the open file description: a second open
// in the same process is refused like one in another process. Cost: an
// open and a flock; when refused, a read of /proc/locks.
// Throws std::system_error: EWOULDBLOCK naming the directory, the holder's
// pid where /proc/locks tells it, and whether it writes or reads; the errno
// of a failed open or flock otherwise.
file lock_journal_directory(const std::filesystem::path& dir, journal_access access);

}  // namespace sluice::detail
