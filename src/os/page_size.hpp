// The size of a memory page, which the kernel copies file data in and out
// of: what direct I/O and dropping cached pages round to, and what the
// reader's buffer is aligned to.
#pragma once

#include <cstddef>

namespace sluice::detail {

// sysconf(_SC_PAGESIZE) (page_size.cpp), GetSystemInfo on Windows
// (page_size_win32.cpp): 4096 on x86-64, 4096-65536 on ARM64. No system
// call (the C library has it from the kernel at start-up); never fails.
std::size_t page_size() noexcept;

}  // namespace sluice::detail
