// copy_metadata and restore_privileges on Windows: nothing is copied yet.
// The replacement is a new file, so it has the security descriptor its
// directory gives new files and the caller as its owner; the old file's own
// ACL, owner and attributes (read-only, hidden) are not carried over
// (docs/platforms.md). There are no setuid bits or capabilities to hold back.
#include "writer/atomic_replace_metadata.hpp"

namespace sluice::detail {

kept_privileges copy_metadata(file&, const resolved_target&) { return {}; }

void restore_privileges(file&, const kept_privileges&) {}

}  // namespace sluice::detail
