// The Win32 backend's own entries and helpers, tested directly under Wine
// (or Windows): the rename and removal of a file through a handle of it
// (rename_held, remove_held), never opened again by path; the handle
// the backend opens for itself and closes whichever way a call leaves
// (owned_handle); the security errors' errno. Built for the win32 backend
// only (tests/CMakeLists.txt).
#include <gtest/gtest.h>
#include <windows.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <new>
#include <string>
#include <vector>

#include "os/path_text.hpp"
#include "os/sys.hpp"
#include "os/win32_errors.hpp"
#include "os/win32_handles.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::detail::handle;
using sluice::detail::no_handle;
using sluice::detail::open_request;

const sluice::detail::sys_table& real() { return sluice::detail::real_sys(); }

// Creates `path` with `content` through the backend, open for reading and
// writing, with DELETE access as atomic_replace's temporary has it.
handle create_deletable(const std::filesystem::path& path, std::string_view content) {
  open_request how{.mode = open_request::access::read_write,
                   .create = true,
                   .exclusive = true,
                   .deletable = true};
  handle h =
      real().open(sluice::detail::working_directory, sluice::detail::path_text(path).c_str(), how);
  EXPECT_NE(h, no_handle()) << std::strerror(errno);
  sluice::detail::io_piece piece{const_cast<char*>(content.data()), content.size()};
  EXPECT_EQ(real().write_at(h, &piece, 1, 0), static_cast<ssize_t>(content.size()));
  return h;
}

// A handle on the directory `path`, as atomic_replace holds its target's.
handle open_directory(const std::filesystem::path& path) {
  handle h = real().open(sluice::detail::working_directory, sluice::detail::path_text(path).c_str(),
                         {.directory = true});
  EXPECT_NE(h, no_handle()) << std::strerror(errno);
  return h;
}

using win32_held = dir_test;

// Whether this runs under Wine (ntdll exports wine_get_version), which
// renames and deletes through a handle by the name the file was opened by.
bool under_wine() {
  HMODULE ntdll = ::GetModuleHandleW(L"ntdll.dll");
  return ntdll && ::GetProcAddress(ntdll, "wine_get_version");
}

// rename_held renames the file the handle holds over the destination,
// replacing it, and the handle stays usable.
TEST_F(win32_held, rename_held_replaces_the_destination) {
  handle h = create_deletable(dir / "temporary", "new");
  write_all(dir / "target", "old");
  handle d = open_directory(dir.path());
  EXPECT_EQ(real().rename_held(h, d, "target"), 0) << std::strerror(errno);
  sluice::detail::file_facts facts;
  EXPECT_EQ(real().facts(h, &facts), 0);
  EXPECT_EQ(facts.size, 3u);
  EXPECT_EQ(real().close(h), 0);
  EXPECT_EQ(real().close(d), 0);
  EXPECT_EQ(read_all(dir / "target"), "new");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"target"});
}

// remove_held deletes the file the handle holds, a read-only one too (as
// unlink(2) removes a file of mode 0444): once the handle is closed, its
// name is gone.
TEST_F(win32_held, remove_held_deletes_the_file_the_handle_holds) {
  for (DWORD attributes : {DWORD{FILE_ATTRIBUTE_NORMAL}, DWORD{FILE_ATTRIBUTE_READONLY}}) {
    SCOPED_TRACE(testing::Message() << "attributes " << attributes);
    handle h = create_deletable(dir / "temporary", "new");
    ASSERT_TRUE(::SetFileAttributesW((dir / "temporary").c_str(), attributes)) << ::GetLastError();
    EXPECT_EQ(real().remove_held(h), 0) << std::strerror(errno);
    EXPECT_EQ(real().close(h), 0);
    EXPECT_EQ(entries(dir.path()), std::vector<std::string>{});
    ::SetFileAttributesW((dir / "temporary").c_str(), FILE_ATTRIBUTE_NORMAL);
    std::filesystem::remove(dir / "temporary");
  }
}

// The file renamed behind the handle's back (by another process, a
// user): rename_held and remove_held still act on the file the handle
// holds, which its old name no longer finds. Wine does both by the name
// the handle was opened by (ENOENT, and the moved file stays).
TEST_F(win32_held, the_held_file_is_found_after_its_name_changed) {
  if (under_wine()) GTEST_SKIP() << "Wine renames and deletes through a handle by its opening name";
  handle h = create_deletable(dir / "temporary", "new");
  write_all(dir / "target", "old");
  ASSERT_TRUE(::MoveFileExW((dir / "temporary").c_str(), (dir / "moved").c_str(), 0))
      << ::GetLastError();
  handle d = open_directory(dir.path());
  EXPECT_EQ(real().rename_held(h, d, "target"), 0) << std::strerror(errno);
  EXPECT_EQ(real().close(h), 0);
  EXPECT_EQ(read_all(dir / "target"), "new");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"target"});
  h = create_deletable(dir / "temporary", "dropped");
  ASSERT_TRUE(::MoveFileExW((dir / "temporary").c_str(), (dir / "moved").c_str(), 0))
      << ::GetLastError();
  EXPECT_EQ(real().remove_held(h), 0) << std::strerror(errno);
  EXPECT_EQ(real().close(h), 0);
  EXPECT_EQ(real().close(d), 0);
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"target"});
}

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

// The errors a security descriptor can meet have an errno that says what
// went wrong, not EIO: a malformed descriptor, ACL or SID is EINVAL; an
// owner, group, label or SACL the process may not give a file, EPERM; a
// filesystem without security, EOPNOTSUPP.
TEST(win32_errors, security_errors_have_a_fitting_errno) {
  using sluice::detail::win32::errno_of;
  EXPECT_EQ(errno_of(ERROR_INVALID_SECURITY_DESCR), EINVAL);
  EXPECT_EQ(errno_of(ERROR_BAD_DESCRIPTOR_FORMAT), EINVAL);
  EXPECT_EQ(errno_of(ERROR_INVALID_ACL), EINVAL);
  EXPECT_EQ(errno_of(ERROR_BAD_INHERITANCE_ACL), EINVAL);
  EXPECT_EQ(errno_of(ERROR_INVALID_SID), EINVAL);
  EXPECT_EQ(errno_of(ERROR_UNKNOWN_REVISION), EINVAL);
  EXPECT_EQ(errno_of(ERROR_REVISION_MISMATCH), EINVAL);
  EXPECT_EQ(errno_of(ERROR_INVALID_OWNER), EPERM);
  EXPECT_EQ(errno_of(ERROR_INVALID_PRIMARY_GROUP), EPERM);
  EXPECT_EQ(errno_of(ERROR_PRIVILEGE_NOT_HELD), EPERM);
  EXPECT_EQ(errno_of(1299), EPERM) << "ERROR_INVALID_LABEL";
  EXPECT_EQ(errno_of(ERROR_NO_SECURITY_ON_OBJECT), EOPNOTSUPP);
  EXPECT_EQ(errno_of(ERROR_ACCESS_DENIED), EACCES);
  EXPECT_EQ(errno_of(ERROR_GEN_FAILURE), EIO) << "a code the table lacks";
}

}  // namespace
