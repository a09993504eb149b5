// The steps of atomic_replace that differ by platform, one file each:
// atomic_replace_steps.cpp (POSIX: the temporary is renamed and removed by
// name, which the directory's permissions decide, and O_DIRECT is set once
// it exists) and atomic_replace_steps_win32.cpp (Windows: renamed and
// deleted through the handle that created it, which asked DELETE access
// then, since a handle opened again by path would need DELETE from the old
// file's DACL, which the temporary carries; FILE_FLAG_NO_BUFFERING chosen
// at creation, the only time Windows takes it).
#pragma once

#include <string>

#include "os/sys.hpp"
#include "sluice/file.hpp"
#include "writer/atomic_replace.hpp"

namespace sluice::detail::temporary_steps {

// Sets what the temporary's creation asks of the platform: direct I/O (for
// caching_mode::direct if `direct`) and DELETE access, each on or off.
void ask_at_creation(open_request& how, bool direct) noexcept;

// Once the temporary exists: what `direct` still needs. Throws naming the
// target (the temporary's path()).
void after_creation(file& temporary, bool direct);

// Renames the temporary, flushed and named, over rest.destination, closing
// it first where the rename goes by name (a failed close throws, the old
// content in place). Returns 0, or -1 with errno.
int rename_over(file& temporary, const replacement& rest);

// After the rename: the temporary closed if it is still open. Throws if
// the close fails, saying that the new content is in place.
void after_rename(file& temporary, const replacement& rest);

// Deletes the temporary, still open, through its handle where the
// platform does so: true if done; else the caller removes it by name.
bool delete_held(file& temporary, const replacement& rest) noexcept;

}  // namespace sluice::detail::temporary_steps
