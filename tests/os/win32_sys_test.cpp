// The Win32 backend's own helpers, tested directly under Wine (or
// Windows): the handle the backend opens for itself and closes whichever
// way a call leaves (owned_handle). Built for the win32 backend only
// (tests/CMakeLists.txt).
#include <gtest/gtest.h>
#include <windows.h>

#include <filesystem>
#include <new>

#include "os/win32_handles.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::detail::handle;
using sluice::detail::no_handle;

using win32_held = dir_test;

// Opens `path` shared with nobody: while that handle is open, no other
// open of the file succeeds.
handle open_unshared(const std::filesystem::path& path) {
  return ::CreateFileW(path.c_str(), GENERIC_READ, 0, nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL,
                       nullptr);
}

// An owned_handle closes its handle when it goes, when an exception (the
// bad_alloc of a buffer grown in the middle of a call) leaves the scope
// too: the file opened shared with nobody can be opened again after.
TEST_F(win32_held, an_owned_handle_is_closed_when_an_exception_leaves) {
  write_all(dir / "f", "content");
  try {
    sluice::detail::win32::owned_handle held(open_unshared(dir / "f"));
    ASSERT_TRUE(held);
    ASSERT_EQ(open_unshared(dir / "f"), no_handle()) << "the file is shared with nobody";
    throw std::bad_alloc();
  } catch (const std::bad_alloc&) {
  }
  sluice::detail::win32::owned_handle again(open_unshared(dir / "f"));
  EXPECT_TRUE(again) << "the first handle is still open: error " << ::GetLastError();
  sluice::detail::win32::owned_handle none(no_handle());
  EXPECT_FALSE(none);
}

// Closing keeps GetLastError as the failed call left it, for the caller
// to report.
TEST_F(win32_held, an_owned_handle_keeps_the_last_error) {
  write_all(dir / "f", "content");
  {
    sluice::detail::win32::owned_handle held(open_unshared(dir / "f"));
    ASSERT_TRUE(held);
    ::SetLastError(ERROR_INVALID_ACL);
  }
  EXPECT_EQ(::GetLastError(), DWORD{ERROR_INVALID_ACL});
}

}  // namespace
