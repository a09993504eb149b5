// writer_options::atomic_replace keeps what the replaced file was: its owner
// and group, its exact mode, its ACL and extended attributes, given to the
// temporary before it takes any byte; a process that may not give them
// replaces nothing. The two-user tests run as root and fork a child that
// becomes user 4242 (or 4243, 4244): no passwd entry is needed.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sluice/sluice.hpp>
#include <string>
#include <vector>

#include "support/fake_sys.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::writer;

// Skips the test with the reason `why` gives, unless it is empty.
#define SKIP_UNLESS(why) \
  if (std::string reason = (why); !reason.empty()) GTEST_SKIP() << reason

constexpr uid_t user = 4242, other_user = 4243, group_member = 4244;
constexpr gid_t user_group = 4242, other_group = 4243;

constexpr sluice::writer_options replace{.atomic_replace = true};

class replace_metadata : public dir_test {
 protected:
  // The test's directory, open to every user (mkdtemp made it 0700).
  void open_to_all(mode_t mode = 0755) { ASSERT_EQ(::chmod(dir.path().c_str(), mode), 0); }

  // Why ACL and extended attribute tests must be skipped here, or "".
  std::string needs_acls() {
    for (const char* tool : {"setfacl", "getfacl", "setfattr", "getfattr"})
      if (auto why = needs_tool(tool); !why.empty()) return why;
    auto probe = dir / "probe";
    write_all(probe, "");
    bool acl = run_command("setfacl -m u:4243:r " + probe.native()).has_value();
    bool xattr = run_command("setfattr -n user.probe -v 1 " + probe.native()).has_value();
    std::filesystem::remove(probe);
    if (!acl || !xattr)
      return "no ACL or user.* extended attribute support in " + dir.path().native();
    return "";
  }
};

struct stat stat_of(const std::filesystem::path& path) {
  struct stat st {};
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path << ": " << std::strerror(errno);
  return st;
}

mode_t mode_of(const std::filesystem::path& path) { return stat_of(path).st_mode & 07777; }

void own(const std::filesystem::path& path, uid_t uid, gid_t gid, mode_t mode) {
  ASSERT_EQ(::chown(path.c_str(), uid, gid), 0) << std::strerror(errno);
  ASSERT_EQ(::chmod(path.c_str(), mode), 0) << std::strerror(errno);
}

// What `path` holds, or "error: <strerror>": for a child process, where a
// failed test assertion would go nowhere.
std::string content_or_error(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::string("error: ") + std::strerror(errno);
  std::string content = read_to_end(fd);
  ::close(fd);
  return content;
}

// Replaces `path` with "new" in a child process that is user `uid`: "done",
// or "errno <n>: <what()>".
std::string replace_as(uid_t uid, gid_t gid, const std::filesystem::path& path) {
  return as_user(uid, gid, [&]() -> std::string {
    try {
      replace_with(path, "new");
      return "done";
    } catch (const std::system_error& e) {
      return "errno " + std::to_string(e.code().value()) + ": " + e.what();
    }
  });
}

std::string acl_of(const std::filesystem::path& path) {
  return run_command("getfacl -p -n --omit-header " + path.native()).value_or("getfacl failed");
}

std::string attributes_of(const std::filesystem::path& path) {
  return run_command("getfattr --absolute-names -d -m - -e hex " + path.native())
      .value_or("getfattr failed");
}

TEST_F(replace_metadata, root_replacing_a_users_private_file_keeps_its_owner_group_and_mode) {
  SKIP_UNLESS(needs_other_users(dir.path()));
  open_to_all();
  auto path = dir / "mine";
  write_all(path, "old");
  own(path, user, user_group, 0600);
  replace_with(path, "new");
  struct stat st = stat_of(path);
  EXPECT_EQ(st.st_uid, user);
  EXPECT_EQ(st.st_gid, user_group);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_EQ(as_user(user, user_group, [&] { return content_or_error(path); }), "new");
}

// The ACL's mask sits in the group bits (0640 here): without the ACL, the
// new file would be readable by the whole group.
TEST_F(replace_metadata, a_file_with_a_user_acl_keeps_it_and_its_group_reads_nothing) {
  SKIP_UNLESS(needs_other_users(dir.path()));
  SKIP_UNLESS(needs_acls());
  open_to_all();
  auto path = dir / "shared-with-one";
  write_all(path, "old");
  own(path, 0, 0, 0600);
  ASSERT_TRUE(run_command("setfacl -m u:4243:r " + path.native()));
  std::string acl = acl_of(path);
  ASSERT_EQ(mode_of(path), 0640u);
  replace_with(path, "new");
  EXPECT_EQ(acl_of(path), acl);
  EXPECT_EQ(mode_of(path), 0640u);
  EXPECT_EQ(as_user(other_user, other_group, [&] { return content_or_error(path); }), "new");
  EXPECT_EQ(as_user(group_member, 0, [&] { return content_or_error(path); }),
            std::string("error: ") + std::strerror(EACCES));
}

TEST_F(replace_metadata, the_exact_mode_is_kept_whatever_the_umask) {
  scoped_umask mask(022);
  for (mode_t mode : {0664, 0666, 0600, 0751, 0444, 02755, 04755}) {
    SCOPED_TRACE(mode);
    auto path = dir / "t";
    write_all(path, "old");
    ASSERT_EQ(::chmod(path.c_str(), mode), 0);
    replace_with(path, pattern(20'000));
    EXPECT_EQ(mode_of(path), mode);
    EXPECT_EQ(read_all(path), pattern(20'000));
  }
}

TEST_F(replace_metadata, user_extended_attributes_are_copied) {
  SKIP_UNLESS(needs_acls());
  auto path = dir / "t";
  write_all(path, "old");
  ASSERT_TRUE(run_command("setfattr -n user.one -v first " + path.native()));
  ASSERT_TRUE(run_command("setfattr -n user.two -v 0x00ff0080 " + path.native()));
  std::string before = attributes_of(path);
  ASSERT_NE(before.find("user.two=0x00ff0080"), std::string::npos) << before;
  replace_with(path, "new");
  EXPECT_EQ(attributes_of(path), before);
}

// A new file in a directory with a default ACL gets it, as open(2) gives
// it; a replaced file keeps what it had, and no more.
TEST_F(replace_metadata, a_default_acl_of_the_directory_adds_no_acl_the_old_file_lacked) {
  SKIP_UNLESS(needs_acls());
  auto old = dir / "old", fresh = dir / "fresh";
  write_all(old, "old");
  ASSERT_EQ(::chmod(old.c_str(), 0640), 0);
  ASSERT_TRUE(run_command("setfacl -d -m u:4243:rw " + dir.path().native()));
  replace_with(old, "new");
  EXPECT_EQ(run_command("getfacl -p --skip-base " + old.native()), "");
  EXPECT_EQ(mode_of(old), 0640u);
  replace_with(fresh, "new");
  EXPECT_NE(run_command("getfacl -p --skip-base " + fresh.native()).value_or(""), "");
}

TEST_F(replace_metadata, a_user_replacing_another_users_file_gets_eperm_and_replaces_nothing) {
  SKIP_UNLESS(needs_other_users(dir.path()));
  open_to_all(0777);  // both users may write the directory
  auto path = dir / "theirs";
  write_all(path, "old");
  own(path, other_user, other_group, 0666);
  std::string said = replace_as(user, user_group, path);
  EXPECT_EQ(said.rfind("errno " + std::to_string(EPERM) + ": ", 0), 0u) << said;
  EXPECT_NE(said.find("owner and group of the file it replaces (uid 4243, gid 4243)"),
            std::string::npos)
      << said;
  EXPECT_NE(said.find(quoted(path)), std::string::npos) << said;
  EXPECT_EQ(read_all(path), "old");
  EXPECT_EQ(stat_of(path).st_uid, other_user);
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"theirs"});
}

// A named temporary is visible in the directory: from its creation until
// it has the old file's owner and ACL it is the owner's alone, and it is
// never wider than the old file. An unnamed one is created 0600 too.
TEST_F(replace_metadata, the_temporary_is_private_until_it_gets_the_old_mode) {
  scoped_umask mask(022);
  for (bool named : {true, false}) {
    SCOPED_TRACE(named ? "named" : "O_TMPFILE");
    auto path = dir / "t";
    write_all(path, "old");
    ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
    std::vector<mode_t> seen;
    {
      fake_sys fake;
      if (named) fake.refuse_unnamed_temporary();
      fake.before_each([&](call) {
        for (const auto& name : entries(dir.path()))
          if (name != "t") seen.push_back(mode_of(dir / name));
      });
      writer out(path, replace);
      out.write(std::string_view("new"));
      out.close();
      if (!named) {
        auto tmpfile = std::find_if(fake.opens().begin(), fake.opens().end(),
                                    [](const auto& how) { return how.unnamed_temporary; });
        ASSERT_NE(tmpfile, fake.opens().end());
        EXPECT_EQ(tmpfile->permissions, 0600u);
      }
    }
    if (named) {
      ASSERT_FALSE(seen.empty());
      EXPECT_EQ(seen.front() & 07077, 0u) << std::oct << seen.front();
      for (mode_t mode : seen) EXPECT_EQ(mode & ~0640u, 0u) << std::oct << mode;
    }
    EXPECT_EQ(mode_of(path), 0640u);
  }
}

// A half-written file must not be a privileged program: the setuid bit
// and security.capability are given only after the last write (root's
// writes, with CAP_FSETID, would not clear the bit). Seen before each write
// of a named temporary replacing root's 04755 file.
TEST_F(replace_metadata, a_half_written_temporary_is_neither_setuid_nor_capable) {
  SKIP_UNLESS(needs_root());
  auto path = dir / "t";
  write_all(path, "old");
  ASSERT_EQ(::chmod(path.c_str(), 04755), 0);
  bool capable =
      needs_tool("setfattr").empty() && run_command(
                                            "setfattr -n security.capability -v "
                                            "0x0100000200200000000000000000000000000000 " +
                                            path.native())
                                            .has_value();
  std::string attributes = capable ? attributes_of(path) : "";
  int writes_seen = 0;
  std::vector<std::string> privileged;  // what a write found on the temporary
  {
    fake_sys fake;
    fake.refuse_unnamed_temporary();
    fake.before_each([&](call which) {
      if (which != call::write_at) return;
      for (const auto& name : entries(dir.path())) {
        if (name == "t") continue;
        ++writes_seen;
        auto temporary = dir / name;
        mode_t mode = mode_of(temporary);
        if (mode & 06000) privileged.push_back("mode " + std::to_string(mode));
        if (::getxattr(temporary.c_str(), "security.capability", nullptr, 0) >= 0)
          privileged.push_back("security.capability");
      }
    });
    writer out(path, {.buffer_size = 4096, .atomic_replace = true});
    std::string content = pattern(20'000);
    for (std::size_t at = 0; at < content.size(); at += 1000)
      out.write(std::string_view(content).substr(at, 1000));
    out.close();
  }
  EXPECT_GE(writes_seen, 4);
  EXPECT_TRUE(privileged.empty()) << privileged.front();
  EXPECT_EQ(mode_of(path), 04755u);
  EXPECT_EQ(read_all(path), pattern(20'000));
  if (capable) {
    EXPECT_EQ(attributes_of(path), attributes);
  }
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"t"});
}

// Every write to a file drops its security.capability, and a write by a
// process without CAP_FSETID its setuid bit: both are given back after
// the last write.
TEST_F(replace_metadata, capabilities_and_setuid_bits_survive_the_writes) {
  SKIP_UNLESS(needs_other_users(dir.path()));
  SKIP_UNLESS(needs_acls());
  open_to_all(0777);
  auto capable = dir / "capable";
  write_all(capable, "old");
  ASSERT_EQ(::chmod(capable.c_str(), 0755), 0);
  if (!run_command("setfattr -n security.capability -v "
                   "0x0100000200200000000000000000000000000000 " +
                   capable.native()))
    GTEST_SKIP() << "no security.capability here";
  std::string before = attributes_of(capable);
  replace_with(capable, pattern(100'000));
  EXPECT_EQ(attributes_of(capable), before);

  auto setuid = dir / "setuid";
  write_all(setuid, "old");
  own(setuid, user, user_group, 04755);
  EXPECT_EQ(replace_as(user, user_group, setuid), "done");
  EXPECT_EQ(mode_of(setuid), 04755u);
  EXPECT_EQ(read_all(setuid), "new");
}

// Two files at one path, one after the other: `path` (0640, user.mark
// "resolved"), then `other` (0604, two attributes) renamed over it by
// swap_in(); the new file must have all of the first and nothing of the
// second.
class replace_swapped : public replace_metadata {
 protected:
  void SetUp() override {
    SKIP_UNLESS(needs_acls());
    write_all(path, "old");
    ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
    ASSERT_TRUE(run_command("setfattr -n user.mark -v resolved " + path.native()));
    resolved = attributes_of(path);
    write_all(other, "other");
    ASSERT_EQ(::chmod(other.c_str(), 0604), 0);
    ASSERT_TRUE(run_command("setfattr -n user.mark -v swapped-in " + other.native()));
    ASSERT_TRUE(run_command("setfattr -n user.extra -v 1 " + other.native()));
  }

  // Renames `other` over `path` before the nth listxattr.
  void swap_in_before_listxattr(fake_sys& fake, int nth) {
    fake.before_each([this, nth, seen = 0](call which) mutable {
      if (which == call::list_attributes && ++seen == nth) std::filesystem::rename(other, path);
    });
  }

  std::filesystem::path path = dir / "t", other = dir / "other";
  std::string resolved;  // getfattr's view of the first file
};

// The attributes are read through the file resolved (/proc/self/fd), not
// its path: a file renamed over it meanwhile lends none.
TEST_F(replace_swapped, a_file_swapped_in_while_the_metadata_is_read_lends_nothing) {
  {
    fake_sys fake;
    swap_in_before_listxattr(fake, 1);
    replace_with(path, "new");
  }
  EXPECT_EQ(read_all(path), "new");
  EXPECT_EQ(mode_of(path), 0640u);
  EXPECT_EQ(attributes_of(path), resolved);
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"t"});
}

// Without /proc (the first listxattr, through /proc/self/fd, fails with
// ENOENT) the attributes are read by path, then the path checked: still the
// same file, the replacement goes on; another file, it is refused.
TEST_F(replace_swapped, without_proc_a_file_swapped_in_while_the_attributes_are_read_is_refused) {
  {
    fake_sys fake;
    fake.fail(call::list_attributes, 1, ENOENT);
    replace_with(path, "new");
    EXPECT_EQ(fake.calls(call::path_facts), 1);
  }
  EXPECT_EQ(attributes_of(path), resolved);
  EXPECT_EQ(mode_of(path), 0640u);
  fake_sys fake;
  fake.fail(call::list_attributes, 1, ENOENT);
  swap_in_before_listxattr(fake, 2);
  auto e = thrown([&] { replace_with(path, "newer"); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EAGAIN);
  EXPECT_NE(std::string(e->what()).find("changed while its extended attributes were being read"),
            std::string::npos)
      << e->what();
  EXPECT_EQ(read_all(path), "other");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"t"});
}

// security.ima and security.evm vouch for the old content, which the new
// one would fail: they are not copied; every other attribute is.
TEST_F(replace_metadata, integrity_signatures_of_the_old_content_are_not_copied) {
  SKIP_UNLESS(needs_root());
  SKIP_UNLESS(needs_acls());
  auto path = dir / "t";
  write_all(path, "old");
  if (!run_command("setfattr -n security.ima -v 0x0401020304 " + path.native()) ||
      !run_command("setfattr -n security.evm -v 0x0201020304 " + path.native()))
    GTEST_SKIP() << "security.ima or security.evm cannot be set here";
  ASSERT_TRUE(run_command("setfattr -n user.kept -v 1 " + path.native()));
  replace_with(path, "new");
  std::string attributes = attributes_of(path);
  EXPECT_NE(attributes.find("user.kept=0x31"), std::string::npos) << attributes;
  EXPECT_EQ(attributes.find("security.ima"), std::string::npos) << attributes;
  EXPECT_EQ(attributes.find("security.evm"), std::string::npos) << attributes;
}

// Each new system call failing: the constructor throws naming the path,
// the old file is untouched and no temporary is left.
TEST_F(replace_metadata, a_failure_to_copy_any_of_it_replaces_nothing) {
  SKIP_UNLESS(needs_acls());
  bool root = ::geteuid() == 0;
  struct step {
    call which;
    int nth;
    bool with_acl;
  };
  for (bool named : {false, true}) {
    for (step s :
         {step{call::facts, 1, true}, step{call::facts, 2, true}, step{call::set_owner, 1, true},
          step{call::list_attributes, 1, true}, step{call::get_attribute, 1, true},
          step{call::set_attribute, 1, true}, step{call::set_attribute, 2, true},
          step{call::remove_attribute, 1, false}, step{call::set_mode, 1, true}}) {
      if (s.which == call::set_owner && !root) continue;  // only reached for another's file
      SCOPED_TRACE(std::string(named ? "named, " : "O_TMPFILE, ") + "call " +
                   std::to_string(static_cast<int>(s.which)) + " #" + std::to_string(s.nth));
      auto path = dir / "t";
      write_all(path, "old");
      if (root) own(path, user, user_group, 0600);
      if (s.with_acl) {
        ASSERT_TRUE(run_command("setfacl -m u:4243:r " + path.native()));
      }
      ASSERT_TRUE(run_command("setfattr -n user.one -v first " + path.native()));
      std::string acl = acl_of(path), attributes = attributes_of(path);
      fake_sys fake;
      if (named) fake.refuse_unnamed_temporary();
      fake.fail(s.which, s.nth, EIO);
      auto e = thrown([&] { writer out(path, replace); });
      ASSERT_TRUE(e);
      EXPECT_EQ(e->code().value(), EIO);
      EXPECT_NE(std::string(e->what()).find(quoted(path)), std::string::npos) << e->what();
      EXPECT_EQ(read_all(path), "old");
      EXPECT_EQ(acl_of(path), acl);
      EXPECT_EQ(attributes_of(path), attributes);
      EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"t"});
      std::filesystem::remove(path);
    }
  }
}

}  // namespace
