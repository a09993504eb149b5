// Who holds a journal's lock, for the message of an open that is refused:
// lock_holder.cpp reads /proc/locks (Linux); lock_holder_win32.cpp, where
// nothing names the holder, says so.
#pragma once

#include <string>

#include "sluice/file.hpp"

namespace sluice::detail {

// "it is open for writing in process 4242", or as much of it as is known
// ("it is open elsewhere (another process, or this one)"), for the lock
// file `lock` that a lock attempt was refused on. Reads /proc/locks,
// /proc/self/fdinfo/<fd> and /proc/self/mountinfo on Linux. Never throws
// but for memory.
std::string who_holds(const file& lock);

}  // namespace sluice::detail
