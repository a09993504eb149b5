// page_size on Windows: GetSystemInfo's page size (4096 on x86-64).
#include <windows.h>

#include "os/page_size.hpp"

namespace sluice::detail {

std::size_t page_size() noexcept {
  SYSTEM_INFO info;
  ::GetSystemInfo(&info);
  return info.dwPageSize;
}

}  // namespace sluice::detail
