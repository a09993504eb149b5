// The Win32 backend's errors: GetLastError's codes mapped to the errno a
// Linux call sets for the same cause, in one table (win32_errors.cpp), so
// that the seam stays errno-based on every platform and std::system_error
// carries std::generic_category() everywhere (docs/platforms.md lists it).
#pragma once

#include <cstdint>

namespace sluice::detail::win32 {

// The errno for the Win32 error `code`; EIO for a code the table lacks.
int errno_of(std::uint32_t code) noexcept;

// Sets errno to errno_of(code) and returns -1: `return fail(code);` in an
// entry that returns int or ssize_t.
int fail(std::uint32_t code) noexcept;

// fail(GetLastError()).
int fail_last() noexcept;

// Sets errno to `errno_value` and returns -1.
int refuse(int errno_value) noexcept;

}  // namespace sluice::detail::win32
