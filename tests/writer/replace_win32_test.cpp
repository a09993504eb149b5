// writer_options::atomic_replace on Windows keeps who may use the file it
// replaces: the new file is created with the old one's owner, group and
// DACL (its protected or inherited state too), its SACL and integrity label
// where the process may read them, and its attributes, read-only given
// last; caching::direct creates the temporary unbuffered; a symbolic link
// at the path is refused. Built for Windows only (tests/CMakeLists.txt);
// the POSIX side is replace_metadata_test.cpp and replace_symlink_test.cpp.
#include <aclapi.h>
#include <gtest/gtest.h>
#include <sddl.h>
#include <windows.h>

#include <algorithm>
#include <functional>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <set>
#include <sluice/sluice.hpp>
#include <string>
#include <vector>

#include "os/path_text.hpp"
#include "support/fake_sys.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::writer;

using replace_security = dir_test;

constexpr sluice::writer_options replace{.atomic_replace = true};

constexpr SECURITY_INFORMATION discretionary =
    OWNER_SECURITY_INFORMATION | GROUP_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION;

struct local_free {
  void operator()(void* memory) const { ::LocalFree(memory); }
};

// The SDDL text of `path`'s owner, group and DACL, with "P" after "D:" when
// the DACL is protected (as SDDL writes it); "error <n>" if unreadable.
std::string security_text(const std::filesystem::path& path) {
  PSECURITY_DESCRIPTOR descriptor = nullptr;
  DWORD error = ::GetNamedSecurityInfoW(path.c_str(), SE_FILE_OBJECT, discretionary, nullptr,
                                        nullptr, nullptr, nullptr, &descriptor);
  if (error != ERROR_SUCCESS) return "error " + std::to_string(error);
  std::unique_ptr<void, local_free> held(descriptor);
  LPSTR text = nullptr;
  if (!::ConvertSecurityDescriptorToStringSecurityDescriptorA(descriptor, SDDL_REVISION_1,
                                                              discretionary, &text, nullptr))
    return "error " + std::to_string(::GetLastError());
  std::string result(text);
  ::LocalFree(text);
  return result;
}

// The SDDL text of this process's user, "S-1-5-21-...".
std::string my_sid() {
  HANDLE token = nullptr;
  EXPECT_TRUE(::OpenProcessToken(::GetCurrentProcess(), TOKEN_QUERY, &token));
  std::vector<char> user(512);
  DWORD size = 0;
  EXPECT_TRUE(
      ::GetTokenInformation(token, TokenUser, user.data(), static_cast<DWORD>(user.size()), &size));
  ::CloseHandle(token);
  LPSTR text = nullptr;
  EXPECT_TRUE(
      ::ConvertSidToStringSidA(reinterpret_cast<TOKEN_USER*>(user.data())->User.Sid, &text));
  std::string sid(text);
  ::LocalFree(text);
  return sid;
}

// Gives `path` (a file, or a directory) the DACL that SDDL `dacl` says,
// through a handle of its own (SetKernelObjectSecurity).
void set_dacl(const std::filesystem::path& path, const std::string& dacl) {
  PSECURITY_DESCRIPTOR descriptor = nullptr;
  ASSERT_TRUE(::ConvertStringSecurityDescriptorToSecurityDescriptorA(dacl.c_str(), SDDL_REVISION_1,
                                                                     &descriptor, nullptr))
      << dacl << ": " << ::GetLastError();
  std::unique_ptr<void, local_free> held(descriptor);
  HANDLE h = ::CreateFileW(path.c_str(), READ_CONTROL | WRITE_DAC,
                           FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                           OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  ASSERT_NE(h, INVALID_HANDLE_VALUE) << path << ": " << ::GetLastError();
  BOOL set = ::SetKernelObjectSecurity(h, DACL_SECURITY_INFORMATION, descriptor);
  DWORD error = ::GetLastError();
  ::CloseHandle(h);
  ASSERT_TRUE(set) << path << ": " << error;
}

bool grants_everyone(const std::string& text) { return text.find(";;;WD)") != std::string::npos; }

// A directory that gives every new file to everyone (an inheritable
// "Everyone: full control"), and in it "t", narrowed to this user alone
// (a protected DACL): replaced, the new file has the old one's owner,
// group and DACL, not what the directory gives.
TEST_F(replace_security, a_narrowed_dacl_is_kept_where_the_directory_gives_everyone_access) {
  set_dacl(dir.path(), "D:P(A;OICI;FA;;;WD)");
  auto path = dir / "t", fresh = dir / "fresh";
  write_all(fresh, "");
  ASSERT_TRUE(grants_everyone(security_text(fresh)))
      << "a new file here should be open to everyone: " << security_text(fresh);
  write_all(path, "old");
  set_dacl(path, "D:P(A;;FA;;;" + my_sid() + ")");
  std::string before = security_text(path);
  ASSERT_FALSE(grants_everyone(before)) << before;
  replace_with(path, "new");
  EXPECT_EQ(read_all(path), "new");
  std::string after = security_text(path);
  EXPECT_EQ(after, before);
  EXPECT_FALSE(grants_everyone(after)) << after;
  EXPECT_EQ(entries(dir.path()), (std::vector<std::string>{"fresh", "t"}));
}

// The temporary exists with the old file's descriptor from its creation:
// the exclusive open that creates it carries it, so no other process can
// open it meanwhile under what the directory gives.
TEST_F(replace_security, the_temporary_is_created_with_the_descriptor) {
  auto path = dir / "t";
  write_all(path, "old");
  set_dacl(path, "D:P(A;;FA;;;" + my_sid() + ")");
  fake_sys fake;
  writer out(path, replace);
  auto created = std::find_if(fake.opens().begin(), fake.opens().end(),
                              [](const auto& how) { return how.create; });
  ASSERT_NE(created, fake.opens().end());
  EXPECT_TRUE(created->exclusive);
  EXPECT_NE(created->security, nullptr);
  EXPECT_EQ(fake.calls(call::read_security), 2) << "its size, then its bytes";
  out.write(std::string_view("new"));
  out.close();
}

// The control bits of the descriptor `bytes` hold.
SECURITY_DESCRIPTOR_CONTROL control_of(const void* bytes) {
  SECURITY_DESCRIPTOR_CONTROL control = 0;
  DWORD revision = 0;
  EXPECT_TRUE(::GetSecurityDescriptorControl(const_cast<void*>(bytes), &control, &revision))
      << ::GetLastError();
  return control;
}

// The descriptor read_security gives `path`, through a path-only handle.
std::string read_security_of(const std::filesystem::path& path) {
  const sluice::detail::sys_table& real = sluice::detail::real_sys();
  auto h = real.open(sluice::detail::working_directory, sluice::detail::path_text(path).c_str(),
                     {.mode = sluice::detail::open_request::access::path_only, .no_follow = true});
  EXPECT_NE(h, sluice::detail::no_handle());
  unsigned parts = 0;
  ssize_t size = real.read_security(h, nullptr, 0, &parts);
  EXPECT_GT(size, 0) << std::strerror(errno);
  std::string bytes(static_cast<std::size_t>(std::max<ssize_t>(size, 0)), '\0');
  EXPECT_EQ(real.read_security(h, bytes.data(), bytes.size(), &parts), size);
  real.close(h);
  return bytes;
}

// A file whose DACL is not protected (it takes what its directory gives):
// the descriptor the temporary is created with protects it, so that the
// system merges none of the directory's inheritable entries into it (a
// file moved in from elsewhere keeps its own entries, and no more).
TEST_F(replace_security, the_temporary_is_created_with_a_protected_dacl) {
  auto path = dir / "t";
  write_all(path, "old");
  set_dacl(path, "D:(A;;FA;;;" + my_sid() + ")");
  std::string before = security_text(path);
  ASSERT_EQ(before.find("D:P"), std::string::npos) << "the file's DACL is protected: " << before;
  std::string descriptor = read_security_of(path);
  ASSERT_FALSE(descriptor.empty());
  SECURITY_DESCRIPTOR_CONTROL control = control_of(descriptor.data());
  EXPECT_TRUE(control & SE_DACL_PROTECTED) << "control " << control;
  EXPECT_TRUE(control & SE_DACL_PRESENT) << "control " << control;
}

// A new path (nothing to keep) gets what the directory gives new files.
TEST_F(replace_security, a_new_file_gets_what_its_directory_gives) {
  fake_sys fake;
  replace_with(dir / "t", "new");
  EXPECT_EQ(fake.calls(call::read_security), 0);
  for (const auto& how : fake.opens()) EXPECT_EQ(how.security, nullptr);
  EXPECT_EQ(security_text(dir / "t"), [&] {
    write_all(dir / "fresh", "");
    return security_text(dir / "fresh");
  }());
}

// Where the process may not read the SACL (no SeSecurityPrivilege enabled,
// as for any process that did not ask for it) or the integrity label, they
// are left out and the replacement goes on. Wine grants both reads without
// the privilege: there the test says which parts were read, and skips.
TEST_F(replace_security, an_unreadable_sacl_or_label_is_left_out) {
  auto path = dir / "t";
  write_all(path, "old");
  const sluice::detail::sys_table& real = sluice::detail::real_sys();
  auto h = real.open(sluice::detail::working_directory, sluice::detail::path_text(path).c_str(),
                     {.mode = sluice::detail::open_request::access::path_only, .no_follow = true});
  ASSERT_NE(h, sluice::detail::no_handle());
  unsigned parts = 0;
  ssize_t size = real.read_security(h, nullptr, 0, &parts);
  real.close(h);
  ASSERT_GT(size, 0) << std::strerror(errno);
  using namespace sluice::detail::security_part;
  EXPECT_EQ(parts & (owner | group | dacl), owner | group | dacl);
  std::printf("[          ] parts read: owner, group, DACL%s%s\n", parts & sacl ? ", SACL" : "",
              parts & label ? ", label" : "");
  replace_with(path, "new");
  EXPECT_EQ(read_all(path), "new");
  if (parts & sacl) GTEST_SKIP() << "this process may read SACLs: the fallback did not run";
}

// The attributes: hidden, system and not content-indexed kept, archive set
// (the content changed), read-only given after the last write.
TEST_F(replace_security, the_attributes_are_kept_and_read_only_is_given_last) {
  constexpr DWORD kept = FILE_ATTRIBUTE_HIDDEN | FILE_ATTRIBUTE_SYSTEM |
                         FILE_ATTRIBUTE_NOT_CONTENT_INDEXED | FILE_ATTRIBUTE_READONLY;
  for (DWORD given : {DWORD{FILE_ATTRIBUTE_HIDDEN | FILE_ATTRIBUTE_SYSTEM},
                      DWORD{FILE_ATTRIBUTE_NOT_CONTENT_INDEXED},
                      DWORD{FILE_ATTRIBUTE_READONLY | FILE_ATTRIBUTE_HIDDEN}}) {
    SCOPED_TRACE(testing::Message() << "attributes " << given);
    auto path = dir / std::to_string(given);
    write_all(path, "old");
    ASSERT_TRUE(::SetFileAttributesW(path.c_str(), given));
    DWORD before = ::GetFileAttributesW(path.c_str()) & kept;
    fake_sys fake;
    auto e = thrown([&] { replace_with(path, "new"); });
    DWORD after = ::GetFileAttributesW(path.c_str());
    ::SetFileAttributesW(path.c_str(), FILE_ATTRIBUTE_NORMAL);
    ASSERT_FALSE(e) << e->what();
    EXPECT_EQ(read_all(path), "new");
    EXPECT_EQ(after & kept, before);
    EXPECT_TRUE(after & FILE_ATTRIBUTE_ARCHIVE);
    if (before & FILE_ATTRIBUTE_READONLY) {
      ASSERT_FALSE(fake.log().empty());
      auto set = std::find(fake.log().begin(), fake.log().end(), call::set_file_attributes);
      auto sync = std::find(fake.log().begin(), fake.log().end(), call::sync_all);
      EXPECT_LT(set, sync) << "read-only given after the writes, before the flush and rename";
    }
  }
}

// The parts of `path`'s descriptor read_security reads (security_part bits).
unsigned security_parts_of(const std::filesystem::path& path) {
  const sluice::detail::sys_table& real = sluice::detail::real_sys();
  auto h = real.open(sluice::detail::working_directory, sluice::detail::path_text(path).c_str(),
                     {.mode = sluice::detail::open_request::access::path_only, .no_follow = true});
  EXPECT_NE(h, sluice::detail::no_handle());
  unsigned parts = 0;
  EXPECT_GT(real.read_security(h, nullptr, 0, &parts), 0) << std::strerror(errno);
  real.close(h);
  return parts;
}

// An EPERM at creation names the parts of `path`'s descriptor a process
// may be refused to give a file, and what each needs: the SACL (what
// ERROR_PRIVILEGE_NOT_HELD is about) and the label only where the
// descriptor carries them.
void expect_privileged_parts_named(const std::string& what, const std::filesystem::path& path) {
  using namespace sluice::detail::security_part;
  unsigned parts = security_parts_of(path);
  EXPECT_NE(what.find("with the security of " + quoted(path) +
                      ", which this process may not give a file: its owner or group (another "
                      "user's needs SeRestorePrivilege)"),
            std::string::npos)
      << what;
  bool sacl_named = what.find("SACL (needs SeSecurityPrivilege)") != std::string::npos;
  bool label_named = what.find("integrity label (one above its own needs SeRelabelPrivilege)") !=
                     std::string::npos;
  EXPECT_EQ(sacl_named, (parts & sacl) != 0) << what << "\nparts " << parts;
  EXPECT_EQ(label_named, (parts & label) != 0) << what << "\nparts " << parts;
  EXPECT_EQ(what.find("owner, group and integrity label"), std::string::npos) << what;
}

// Each step of the copy failing: the writer throws, naming what could not
// be kept, the target keeps its old content and no temporary is left.
TEST_F(replace_security, a_failure_to_keep_the_security_replaces_nothing) {
  auto path = dir / "t";
  write_all(path, "old");
  {
    fake_sys fake;
    fake.fail(call::read_security, 1, EACCES);
    auto e = thrown([&] { writer out(path, replace); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->code().value(), EACCES);
    EXPECT_NE(std::string(e->what()).find("cannot read the security descriptor (owner, group and "
                                          "ACL) of " +
                                          quoted(path)),
              std::string::npos)
        << e->what();
  }
  {
    fake_sys fake;
    fake.on_open([](const std::string&, const sluice::detail::open_request& how) {
      return how.create && how.security ? EPERM : 0;  // as ERROR_INVALID_OWNER
    });
    auto e = thrown([&] { writer out(path, replace); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->code().value(), EPERM);
    expect_privileged_parts_named(e->what(), path);
  }
  ASSERT_TRUE(::SetFileAttributesW(path.c_str(), FILE_ATTRIBUTE_READONLY));
  {
    fake_sys fake;
    writer out(path, replace);
    out.write(std::string_view("new"));
    fake.fail(call::set_file_attributes, 1, EACCES);
    auto e = thrown([&] { out.close(); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->code().value(), EACCES);
    EXPECT_NE(std::string(e->what()).find("cannot give the new file the read-only attribute"),
              std::string::npos)
        << e->what();
  }
  ::SetFileAttributesW(path.c_str(), FILE_ATTRIBUTE_NORMAL);
  EXPECT_EQ(read_all(path), "old");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"t"});
}

// A SACL or label that cannot be read for a reason other than the
// privilege or a filesystem without labels fails the replacement, naming
// that part: the read_security of a seam that reads owner, group and DACL
// and then fails (Wine reads every part; its errors cannot be made).
class unreadable_sacl {
 public:
  unreadable_sacl() {
    table_ = sluice::detail::real_sys();
    table_.read_security = read_security;
    sluice::detail::set_sys(&table_);
  }
  ~unreadable_sacl() { sluice::detail::set_sys(nullptr); }
  unreadable_sacl(const unreadable_sacl&) = delete;
  unreadable_sacl& operator=(const unreadable_sacl&) = delete;

 private:
  static ssize_t read_security(sluice::detail::handle, void*, size_t, unsigned* parts) {
    using namespace sluice::detail::security_part;
    *parts = owner | group | dacl;
    return errno = EIO, -1;
  }
  sluice::detail::sys_table table_{};
};

TEST_F(replace_security, an_unreadable_sacl_fails_naming_it) {
  auto path = dir / "t";
  write_all(path, "old");
  {
    unreadable_sacl seam;
    auto e = thrown([&] { writer out(path, replace); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->code().value(), EIO);
    EXPECT_NE(std::string(e->what()).find("cannot read the SACL and integrity label of " +
                                          quoted(path) + ", which the new file must have"),
              std::string::npos)
        << e->what();
  }
  EXPECT_EQ(read_all(path), "old");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"t"});
}

// caching::direct: Windows chooses unbuffered I/O only at CreateFileW, so
// the temporary is created with it; the content arrives whole.
TEST_F(replace_security, direct_creates_the_temporary_unbuffered) {
  auto path = dir / "t";
  write_all(path, "old");
  std::string data = pattern(300'001);
  fake_sys fake;
  {
    writer out(path, {.caching = sluice::caching::direct, .atomic_replace = true});
    out.write(data);
    out.close();
  }
  EXPECT_EQ(read_all(path), data);
  auto created = std::find_if(fake.opens().begin(), fake.opens().end(),
                              [](const auto& how) { return how.create; });
  ASSERT_NE(created, fake.opens().end());
  EXPECT_TRUE(created->direct);
  EXPECT_EQ(fake.calls(call::set_state), 0);
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"t"});
}

// A filesystem that refuses unbuffered I/O fails the creation: the error
// names the temporary, and nothing is left.
TEST_F(replace_security, direct_refused_at_creation_leaves_nothing) {
  auto path = dir / "t";
  write_all(path, "old");
  fake_sys fake;
  fake.on_open([](const std::string&, const sluice::detail::open_request& how) {
    return how.create && how.direct ? EINVAL : 0;
  });
  auto e = thrown(
      [&] { writer out(path, {.caching = sluice::caching::direct, .atomic_replace = true}); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EINVAL);
  EXPECT_NE(std::string(e->what()).find("cannot create the temporary file '" +
                                        (dir / ".t.sluice-tmp-").string()),
            std::string::npos)
      << e->what();
  EXPECT_EQ(read_all(path), "old");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"t"});
}

// --- the temporary renamed and deleted through its own handle -----------------------------

using replace_handle = dir_test;

// The open that created the temporary: it asked DELETE access (deletable).
void expect_created_deletable(const fake_sys& fake) {
  auto created = std::find_if(fake.opens().begin(), fake.opens().end(),
                              [](const auto& how) { return how.create; });
  ASSERT_NE(created, fake.opens().end());
  EXPECT_TRUE(created->deletable);
}

// The rename into place goes through the handle that created the
// temporary (rename_held): it is never opened again by its name, which
// would ask DELETE of its DACL, the old file's. With an old file and
// without one.
TEST_F(replace_handle, the_rename_goes_through_the_temporarys_handle) {
  write_all(dir / "old", "old");
  for (const char* name : {"old", "new"}) {
    SCOPED_TRACE(name);
    fake_sys fake;
    replace_with(dir / name, "content");
    expect_created_deletable(fake);
    EXPECT_EQ(fake.calls(call::rename_held), 1);
    EXPECT_EQ(fake.calls(call::rename), 0) << "renamed by its name";
    EXPECT_EQ(fake.calls(call::remove), 0);
    EXPECT_EQ(read_all(dir / name), "content");
  }
  EXPECT_EQ(entries(dir.path()), (std::vector<std::string>{"new", "old"}));
}

// How a discarded temporary was deleted: the calls through its handle
// (remove_held) and by its name (remove).
struct deletions {
  int through_handle = 0;
  int by_name = 0;
};

// Writes "new" with a writer replacing `path`, lets `plan` set the fake's
// failures, and checks that close() fails with `error`: the deletions the
// discard made.
deletions after_failed_close(const std::filesystem::path& path, int error,
                             const std::function<void(fake_sys&)>& plan) {
  fake_sys fake;
  writer out(path, replace);
  out.write(std::string_view("new"));
  plan(fake);
  auto e = thrown([&] { out.close(); });
  EXPECT_TRUE(e);
  if (e) {
    EXPECT_EQ(e->code().value(), error) << e->what();
  }
  return {fake.calls(call::remove_held), fake.calls(call::remove)};
}

// A writer replacing `path` whose close() fails with `error` at the first
// `failing` call: the temporary is deleted through its handle, never by
// its name.
void expect_deleted_through_handle(const std::filesystem::path& path, call failing, int error) {
  deletions made =
      after_failed_close(path, error, [&](fake_sys& fake) { fake.fail(failing, 1, error); });
  EXPECT_EQ(made.through_handle, 1);
  EXPECT_EQ(made.by_name, 0) << "deleted by its name";
}

// The temporary discarded (the writer destroyed without close(), the
// rename failing, or the flush after read-only was given to it) is deleted
// through its handle (remove_held), a read-only one too; the target keeps
// its old content and nothing is left beside it.
TEST_F(replace_handle, a_discarded_temporary_is_deleted_through_its_handle) {
  auto path = dir / "t";
  write_all(path, "old");
  {
    fake_sys fake;
    {
      writer out(path, replace);
      out.write(std::string_view("new"));
    }
    EXPECT_EQ(fake.calls(call::remove_held), 1);
    EXPECT_EQ(fake.calls(call::remove), 0) << "deleted by its name";
  }
  expect_deleted_through_handle(path, call::rename_held, EACCES);
  ASSERT_TRUE(::SetFileAttributesW(path.c_str(), FILE_ATTRIBUTE_READONLY));
  expect_deleted_through_handle(path, call::sync_all, EIO);
  ::SetFileAttributesW(path.c_str(), FILE_ATTRIBUTE_NORMAL);
  EXPECT_EQ(read_all(path), "old");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"t"});
}

// A rename reported failed after it was done (a network filesystem's late
// error): the handle then holds the destination, so the temporary is
// deleted by its name, which finds nothing there, and the new content
// stays. (A refused rename, EACCES, moved nothing: the temporary is deleted
// through its handle, above.)
TEST_F(replace_handle, after_a_rename_that_may_have_been_done_the_temporary_goes_by_name) {
  auto path = dir / "t";
  write_all(path, "old");
  deletions made = after_failed_close(
      path, EIO, [](fake_sys& fake) { fake.fail_after(call::rename_held, 1, EIO); });
  EXPECT_EQ(made.through_handle, 0) << "deleted through a handle on the destination";
  EXPECT_EQ(made.by_name, 1);
  EXPECT_EQ(read_all(path), "new");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"t"});
}

// The temporary's handle failing to close after the rename that went
// through it: the directory is synced all the same, and the error says
// whether that failed too.
TEST_F(replace_handle, a_close_failing_after_the_rename_still_syncs_the_directory) {
  auto path = dir / "t";
  for (bool sync_fails : {false, true}) {
    SCOPED_TRACE(sync_fails ? "the sync fails too" : "the sync succeeds");
    write_all(path, "old");
    fake_sys fake;
    writer out(path, replace);
    out.write(std::string_view("new"));
    int syncs = fake.calls(call::sync_directory);
    fake.fail(call::close, fake.calls(call::close) + 1, EIO);
    if (sync_fails) fake.fail(call::sync_directory, syncs + 1, EIO);
    auto e = thrown([&] { out.close(); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->code().value(), EIO);
    EXPECT_EQ(fake.calls(call::sync_directory), syncs + 1);
    std::string said = e->what();
    EXPECT_NE(said.find("is done, but the new file's handle could not be closed"),
              std::string::npos)
        << said;
    EXPECT_EQ(said.find("nor its directory synced: the rename may not survive a power loss") !=
                  std::string::npos,
              sync_fails)
        << said;
    EXPECT_EQ(read_all(path), "new");
  }
}

// The review's case: an old file whose DACL grants this user read and
// write but not DELETE. The temporary carries that DACL; renamed and
// deleted through the handle that created it, it needs nothing of it.
// (Wine keeps a DACL as mode bits, which have no DELETE: there this
// passes whichever way the temporary is renamed; the seam tests above
// show the way.)
TEST_F(replace_handle, a_dacl_without_delete_is_replaced_and_discarded) {
  auto path = dir / "t";
  write_all(path, "old");
  set_dacl(path, "D:P(A;;FRFW;;;" + my_sid() + ")");
  {
    writer out(path, replace);
    out.write(std::string_view("dropped"));
  }
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"t"});
  replace_with(path, "new");
  EXPECT_EQ(read_all(path), "new");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"t"});
}

// --- a symbolic link at the path --------------------------------------------------------

using replace_link = dir_test;

// Makes `link` a symbolic link to `target` (CreateSymbolicLinkW, without
// the privilege where Developer Mode allows it): "" if it is there
// afterwards, else why not. Wine 8's CreateSymbolicLinkW reports success
// and makes nothing.
std::string make_link(const std::filesystem::path& target, const std::filesystem::path& link) {
  BOOLEAN made = ::CreateSymbolicLinkW(link.c_str(), target.c_str(),
                                       SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE);
  DWORD error = ::GetLastError();
  if (!made) return "CreateSymbolicLinkW failed: error " + std::to_string(error);
  DWORD attributes = ::GetFileAttributesW(link.c_str());
  if (attributes == INVALID_FILE_ATTRIBUTES || !(attributes & FILE_ATTRIBUTE_REPARSE_POINT))
    return "CreateSymbolicLinkW reported success but made no link (as Wine 8 does)";
  return "";
}

bool is_link(const std::filesystem::path& path) {
  DWORD attributes = ::GetFileAttributesW(path.c_str());
  return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_REPARSE_POINT);
}

// Windows has none of the checks Linux makes before following a link (its
// owner, protected_symlinks): a symbolic link at the path is refused, the
// file it leads to and the link stay as they were, nothing is created.
void expect_link_refused(const std::filesystem::path& link) {
  auto e = thrown([&] { writer out(link, replace); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EINVAL);
  EXPECT_NE(std::string(e->what()).find(
                quoted(link) + ": a symbolic link at the path is not followed by atomic_replace "
                               "on Windows; name the file it leads to"),
            std::string::npos)
      << e->what();
}

TEST_F(replace_link, a_link_at_the_path_is_refused) {
  std::filesystem::create_directory(dir / "real");
  write_all(dir / "real" / "t", "old");
  if (auto why = make_link(std::filesystem::path("real") / "t", dir / "link"); !why.empty())
    GTEST_SKIP() << why;
  expect_link_refused(dir / "link");
  EXPECT_EQ(read_all(dir / "real" / "t"), "old");
  EXPECT_TRUE(is_link(dir / "link"));
  ASSERT_EQ(make_link(std::filesystem::path("real") / "missing", dir / "dangling"), "");
  expect_link_refused(dir / "dangling");
  EXPECT_EQ(entries(dir / "real"), std::vector<std::string>{"t"});
}

// The same where no link can be made (Wine): a seam that shows the regular
// files it is given as symbolic links (facts says symlink when they are
// opened without following), over the real backend.
class pretended_links {
 public:
  explicit pretended_links(std::set<std::string> names) : names_(std::move(names)) {
    active_ = this;
    table_ = sluice::detail::real_sys();
    table_.open = open;
    table_.close = close;
    table_.facts = facts;
    sluice::detail::set_sys(&table_);
  }
  ~pretended_links() {
    sluice::detail::set_sys(nullptr);
    active_ = nullptr;
  }
  pretended_links(const pretended_links&) = delete;
  pretended_links& operator=(const pretended_links&) = delete;

 private:
  static sluice::detail::handle open(sluice::detail::handle dir, const char* path,
                                     const sluice::detail::open_request& how) {
    auto h = sluice::detail::real_sys().open(dir, path, how);
    if (h != sluice::detail::no_handle() && how.no_follow && active_->names_.count(path))
      active_->held_.insert(h);
    return h;
  }
  static int close(sluice::detail::handle h) {
    active_->held_.erase(h);
    return sluice::detail::real_sys().close(h);
  }
  static int facts(sluice::detail::handle h, sluice::detail::file_facts* out) {
    int result = sluice::detail::real_sys().facts(h, out);
    if (result == 0 && active_->held_.count(h)) out->type = sluice::detail::file_type::symlink;
    return result;
  }

  static inline pretended_links* active_ = nullptr;
  sluice::detail::sys_table table_{};
  std::set<std::string> names_;
  std::set<sluice::detail::handle> held_;
};

// A file the seam shows as a link is refused, its content unchanged, no
// temporary left beside it.
TEST_F(replace_link, a_link_at_the_path_is_refused_over_the_seam) {
  write_all(dir / "link", "a link");
  {
    pretended_links links({"link"});
    expect_link_refused(dir / "link");
  }
  EXPECT_EQ(read_all(dir / "link"), "a link");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"link"});
}

}  // namespace
