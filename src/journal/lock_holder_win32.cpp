// who_holds on Windows: LockFileEx has no list of holders to read.
#include "journal/lock_holder.hpp"

namespace sluice::detail {

std::string who_holds(const file&) { return "it is open elsewhere (another process, or this one)"; }

}  // namespace sluice::detail
