// writer_options::atomic_replace keeps what the replaced file was: its owner
// and group, its exact mode, its ACL and extended attributes, given to the
// temporary before it takes any byte; a process that may not give them
// replaces nothing. The two-user tests run as root and fork a child that
// becomes user 4242 (or 4243, 4244): no passwd entry is needed.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sluice/sluice.hpp>
#include <string>
#include <vector>

#include "fake_sys.hpp"
#include "test_support.hpp"

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
  SKIP_UNLESS(needs_root());
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
  SKIP_UNLESS(needs_root());
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
  SKIP_UNLESS(needs_root());
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
      if (named) fake.refuse_o_tmpfile();
      fake.before_each([&](call) {
        for (const auto& name : entries(dir.path()))
          if (name != "t") seen.push_back(mode_of(dir / name) & 0777);
      });
      writer out(path, replace);
      out.write(std::string_view("new"));
      out.close();
      if (!named) {
        ASSERT_GE(fake.open_modes().size(), 2u);
        EXPECT_EQ(fake.open_modes()[1], 0600u) << "the O_TMPFILE open";
      }
    }
    if (named) {
      ASSERT_FALSE(seen.empty());
      EXPECT_EQ(seen.front() & 077, 0u) << std::oct << seen.front();
      for (mode_t mode : seen) EXPECT_EQ(mode & ~0640u, 0u) << std::oct << mode;
    }
    EXPECT_EQ(mode_of(path), 0640u);
  }
}

// Every write to a file drops its security.capability, and a write by a
// process without CAP_FSETID its setuid bit: both are given back after
// the last write.
TEST_F(replace_metadata, capabilities_and_setuid_bits_survive_the_writes) {
  SKIP_UNLESS(needs_root());
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
    for (step s : {step{call::fstat, 1, true}, step{call::fchown, 1, true},
                   step{call::llistxattr, 1, true}, step{call::lgetxattr, 1, true},
                   step{call::fsetxattr, 1, true}, step{call::fsetxattr, 2, true},
                   step{call::fremovexattr, 1, false}, step{call::fchmod, 1, true}}) {
      if (s.which == call::fchown && !root) continue;  // only reached for another's file
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
      if (named) fake.refuse_o_tmpfile();
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
