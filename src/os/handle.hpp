// The platform seam's vocabulary types, one definition per platform: what
// a handle is, the handles that stand for none and for the working
// directory, and the piece of memory a gather or scatter transfer names.
//
// On POSIX a handle is a descriptor and a piece is exactly ::iovec, so the
// seam hands the kernel its own arrays. On Windows a handle is a HANDLE and
// a piece a struct with iovec's member names, which the Win32 backend walks
// one piece at a time.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sluice/file.hpp"

#ifndef _WIN32
#include <sys/uio.h>

#include <climits>
#endif

namespace sluice::detail {

// An open file, directory or stream: sluice::native_handle_type.
using handle = native_handle_type;

#ifdef _WIN32
// INVALID_HANDLE_VALUE, what CreateFileW returns on failure.
inline handle no_handle() noexcept {
  return reinterpret_cast<handle>(static_cast<std::intptr_t>(-1));
}
// As a `dir` argument: paths are resolved from the working directory.
inline constexpr handle working_directory = nullptr;

// One piece of memory of a gather write or a scatter read.
struct io_piece {
  void* iov_base;
  std::size_t iov_len;
};
// The most pieces one seam call takes.
inline constexpr int max_pieces = 1024;
#else
constexpr handle no_handle() noexcept { return -1; }
inline constexpr handle working_directory = -100;  // AT_FDCWD

using io_piece = ::iovec;
inline constexpr int max_pieces = IOV_MAX;
#endif

// The handle of the C runtime's descriptor `descriptor` (0 for standard
// input, 1 for standard output): itself on POSIX, _get_osfhandle's on
// Windows (no_handle() for a descriptor that is not open).
#ifdef _WIN32
handle handle_of_descriptor(int descriptor) noexcept;
#else
constexpr handle handle_of_descriptor(int descriptor) noexcept { return descriptor; }
#endif

}  // namespace sluice::detail
