#include "os/page_size.hpp"

#include <unistd.h>

namespace sluice::detail {

std::size_t page_size() noexcept { return static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)); }

}  // namespace sluice::detail
