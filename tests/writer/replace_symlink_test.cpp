// writer_options::atomic_replace through symbolic links: the file a link
// points to is replaced and the link kept, as editors save; a /proc link
// (/dev/stdout, /proc/self/fd/N) is never replaced; the checks the kernel
// makes when it follows links (fs.protected_symlinks) or creates in /tmp
// (fs.protected_regular) hold although sluice follows the links itself.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <sluice/sluice.hpp>
#include <string>
#include <vector>

#include "support/fake_sys.hpp"
#include "support/filesystem.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::writer;

using replace_symlink = dir_test;

constexpr uid_t user = 4242;
constexpr gid_t user_group = 4242;

constexpr sluice::writer_options replace{.atomic_replace = true};

std::string link_of(const std::filesystem::path& link) {
  std::error_code error;
  auto target = std::filesystem::read_symlink(link, error);
  return error ? "not a link: " + error.message() : target.native();
}

// The error replacing `path` throws, if any.
std::optional<std::system_error> replacing(const std::filesystem::path& path) {
  return thrown([&] { replace_with(path, "new"); });
}

TEST_F(replace_symlink, a_link_is_followed_and_kept) {
  std::filesystem::create_directory(dir / "real");
  write_all(dir / "real" / "t", "old");
  std::filesystem::create_symlink("real/t", dir / "relative");
  std::filesystem::create_symlink(dir / "real" / "t", dir / "absolute");
  std::filesystem::create_symlink("relative", dir / "chain");
  for (const char* name : {"relative", "absolute", "chain"}) {
    SCOPED_TRACE(name);
    write_all(dir / "real" / "t", "old");
    std::string link = link_of(dir / name);
    replace_with(dir / name, "new");
    EXPECT_EQ(link_of(dir / name), link);
    EXPECT_EQ(read_all(dir / "real" / "t"), "new");
    EXPECT_EQ(entries(dir / "real"), std::vector<std::string>{"t"});
  }
  EXPECT_EQ(entries(dir.path()),
            (std::vector<std::string>{"absolute", "chain", "real", "relative"}));
}

// The named temporary goes beside the file replaced, named after it.
TEST_F(replace_symlink, a_named_temporary_goes_beside_the_file_the_link_points_to) {
  std::filesystem::create_directory(dir / "real");
  write_all(dir / "real" / "t", "old");
  std::filesystem::create_symlink("real/t", dir / "link");
  fake_sys fake;
  fake.refuse_unnamed_temporary();
  writer out(dir / "link", replace);
  out.write(std::string_view("new"));
  out.flush();
  auto names = entries(dir / "real");
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0].rfind(".t.sluice-tmp-", 0), 0u) << names[0];
  out.close();
  EXPECT_EQ(read_all(dir / "real" / "t"), "new");
  EXPECT_EQ(link_of(dir / "link"), "real/t");
}

TEST_F(replace_symlink, a_dangling_link_gets_its_target_created) {
  std::filesystem::create_symlink("missing", dir / "link");
  replace_with(dir / "link", "new");
  EXPECT_EQ(link_of(dir / "link"), "missing");
  EXPECT_EQ(read_all(dir / "missing"), "new");
}

TEST_F(replace_symlink, a_loop_is_eloop) {
  std::filesystem::create_symlink("b", dir / "a");
  std::filesystem::create_symlink("a", dir / "b");
  std::filesystem::create_symlink("self", dir / "self");
  for (const char* name : {"a", "self"}) {
    auto e = replacing(dir / name);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->code().value(), ELOOP);
    EXPECT_NE(std::string(e->what()).find(quoted(dir / name)), std::string::npos) << e->what();
  }
  EXPECT_EQ(entries(dir.path()), (std::vector<std::string>{"a", "b", "self"}));
}

// In a child whose standard output is the regular file `out`, replaces
// `name`: "errno <n>: <what()>", or "replaced". A regression would replace
// what `name` leads to, so the parent checks the file, and the link.
std::string replace_standard_output(const std::filesystem::path& out, const std::string& name) {
  int ends[2];
  if (::pipe(ends) != 0) return "pipe failed";
  pid_t child = ::fork();
  if (child == 0) {
    ::close(ends[0]);
    int fd = ::open(out.c_str(), O_WRONLY | O_APPEND);  // not truncated
    std::string said = "replaced";
    if (fd < 0 || ::dup2(fd, STDOUT_FILENO) < 0) said = "cannot redirect";
    try {
      if (fd >= 0) replace_with(name, "new");
    } catch (const std::system_error& e) {
      said = "errno " + std::to_string(e.code().value()) + ": " + e.what();
    }
    [[maybe_unused]] auto n = ::write(ends[1], said.data(), said.size());
    ::_exit(0);
  }
  ::close(ends[1]);
  std::string said = read_to_end(ends[0]);
  ::close(ends[0]);
  ::waitpid(child, nullptr, 0);
  return said;
}

// Whether `said` is the refusal of a /proc link.
bool refused(const std::string& said) {
  return said.rfind("errno " + std::to_string(EINVAL) + ": ", 0) == 0 &&
         said.find("write to the descriptor instead") != std::string::npos;
}

// /dev/stdout is a link to /proc/self/fd/1: a link of the test's own to it
// takes the same path through sluice, and so do /dev/fd/1 and
// /proc/self/fd/1 themselves, without putting the machine's /dev/stdout at
// stake. None may replace the file standard output is redirected to, or
// the link.
TEST_F(replace_symlink, standard_output_redirected_to_a_file_is_never_replaced) {
  if (auto why = needs_procfs(); !why.empty()) GTEST_SKIP() << why;
  struct statfs proc {};
  if (::statfs("/proc", &proc) != 0 || proc.f_type != PROC_SUPER_MAGIC)
    GTEST_SKIP() << "/proc is not mounted: no descriptor links to refuse";
  auto out = dir / "out";
  std::filesystem::create_symlink("/proc/self/fd/1", dir / "stdout");
  for (std::string name :
       {(dir / "stdout").native(), std::string("/dev/fd/1"), std::string("/proc/self/fd/1")}) {
    SCOPED_TRACE(name);
    write_all(out, "redirected");
    std::string said = replace_standard_output(out, name);
    EXPECT_TRUE(refused(said)) << said;
    EXPECT_EQ(read_all(out), "redirected");
  }
  EXPECT_EQ(link_of(dir / "stdout"), "/proc/self/fd/1");
  EXPECT_EQ(entries(dir.path()), (std::vector<std::string>{"out", "stdout"}));
}

// The machine's own /dev/stdout, only where that is safe: it is the usual
// link, and the test's own link to /proc/self/fd/1 is refused (a
// regression there would replace /dev/stdout for every process); in a
// child whose standard output is a scratch file. If it was replaced all the
// same, the link is put back.
TEST_F(replace_symlink, dev_stdout_itself_is_refused) {
  if (auto why = needs_procfs(); !why.empty()) GTEST_SKIP() << why;
  if (link_of("/dev/stdout") != "/proc/self/fd/1")
    GTEST_SKIP() << "/dev/stdout is not a link to /proc/self/fd/1 here";
  auto out = dir / "out";
  std::filesystem::create_symlink("/proc/self/fd/1", dir / "stdout");
  write_all(out, "redirected");
  std::string said = replace_standard_output(out, (dir / "stdout").native());
  if (!refused(said))
    GTEST_FAIL() << "a link to /proc/self/fd/1 was not refused (" << said
                 << "): /dev/stdout is not tried";
  struct stat before {};
  ASSERT_EQ(::lstat("/dev/stdout", &before), 0);
  said = replace_standard_output(out, "/dev/stdout");
  EXPECT_TRUE(refused(said)) << said;
  EXPECT_EQ(read_all(out), "redirected");
  struct stat after {};
  ASSERT_EQ(::lstat("/dev/stdout", &after), 0);
  EXPECT_TRUE(S_ISLNK(after.st_mode)) << "/dev/stdout was replaced";
  EXPECT_EQ(after.st_ino, before.st_ino);
  if (link_of("/dev/stdout") != "/proc/self/fd/1") {  // leave the machine as it was
    ::unlink("/dev/stdout");
    ASSERT_EQ(::symlink("/proc/self/fd/1", "/dev/stdout"), 0);
  }
}

TEST_F(replace_symlink, a_descriptor_link_under_proc_is_refused) {
  if (auto why = needs_procfs(); !why.empty()) GTEST_SKIP() << why;
  auto path = dir / "t";
  write_all(path, "old");
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  for (const std::string& name :
       {"/proc/self/fd/" + std::to_string(fd),
        "/proc/" + std::to_string(::getpid()) + "/fd/" + std::to_string(fd)}) {
    SCOPED_TRACE(name);
    auto e = replacing(name);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->code().value(), EINVAL);
    EXPECT_NE(std::string(e->what()).find("is a /proc link"), std::string::npos) << e->what();
  }
  ::close(fd);
  EXPECT_EQ(read_all(path), "old");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"t"});
}

TEST_F(replace_symlink, a_file_in_proc_is_refused) {
  if (auto why = needs_procfs(); !why.empty()) GTEST_SKIP() << why;
  auto e = replacing("/proc/self/sluice-test");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EINVAL);
  EXPECT_NE(std::string(e->what()).find("is in /proc"), std::string::npos) << e->what();
}

// A sticky directory all may write (a /tmp), owned by root, the caller.
class replace_in_sticky : public replace_symlink {
 protected:
  void SetUp() override {
    if (auto why = needs_root(); !why.empty()) GTEST_SKIP() << why;
    ASSERT_EQ(::chmod(dir.path().c_str(), 01777), 0);
  }

  // Makes `name` in the directory a link to `target`, owned by `uid`.
  void plant_link(const std::string& name, const std::filesystem::path& target, uid_t uid) {
    std::filesystem::create_symlink(target, dir / name);
    ASSERT_EQ(::lchown((dir / name).c_str(), uid, uid), 0);
  }
};

// fs.protected_symlinks: a link another user planted in /tmp is not
// followed, even by root; root's own link is.
TEST_F(replace_in_sticky, a_link_planted_by_another_user_is_not_followed) {
  temp_dir elsewhere;
  auto target = elsewhere / "root-file";
  write_all(target, "old");
  plant_link("planted", target, user);
  auto e = replacing(dir / "planted");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EACCES);
  EXPECT_NE(std::string(e->what()).find("fs.protected_symlinks"), std::string::npos) << e->what();
  EXPECT_EQ(read_all(target), "old");
  EXPECT_EQ(link_of(dir / "planted"), target.native());

  plant_link("own", target, 0);
  EXPECT_FALSE(replacing(dir / "own"));
  EXPECT_EQ(read_all(target), "new");
}

// fs.protected_regular: a file another user planted in /tmp is not
// replaced by root (who would then hand that user its data); the user's
// own file in the user's own sticky directory is.
TEST_F(replace_in_sticky, a_file_planted_by_another_user_is_not_replaced) {
  auto planted = dir / "planted";
  write_all(planted, "old");
  ASSERT_EQ(::chown(planted.c_str(), user, user_group), 0);
  auto e = replacing(planted);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EACCES);
  EXPECT_NE(std::string(e->what()).find("fs.protected_regular"), std::string::npos) << e->what();
  EXPECT_EQ(read_all(planted), "old");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"planted"});

  ASSERT_EQ(::chown(dir.path().c_str(), user, user_group), 0);  // now the directory's owner's
  EXPECT_FALSE(replacing(planted));
  EXPECT_EQ(read_all(planted), "new");
  struct stat st {};
  ASSERT_EQ(::stat(planted.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, user);
}

// A user's directory, 0755 in a 0755 directory of root's: what root meets
// writing a file a user may have made a link, as /home/alice/.ssh/authorized_keys.
class replace_through_a_users_link : public replace_symlink {
 protected:
  void SetUp() override {
    if (auto why = needs_root(); !why.empty()) GTEST_SKIP() << why;
    ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);
    std::filesystem::create_directory(home);
    ASSERT_EQ(::chown(home.c_str(), user, user_group), 0);
  }

  // Makes `name` in the user's directory a link to `target`, owned by the user.
  void users_link(const std::string& name, const std::filesystem::path& target) {
    std::filesystem::create_symlink(target, home / name);
    ASSERT_EQ(::lchown((home / name).c_str(), user, user_group), 0);
  }

  std::filesystem::path home = dir / "home";
};

// The user's link to root's file must not steer root onto it.
TEST_F(replace_through_a_users_link, a_link_to_roots_file_is_refused) {
  auto secret = dir / "authorized_keys";
  write_all(secret, "root's");
  ASSERT_EQ(::chmod(secret.c_str(), 0600), 0);
  users_link("keys", secret);
  auto e = replacing(home / "keys");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EACCES);
  std::string what = e->what();
  EXPECT_EQ(what.rfind("sluice: open " + quoted(home / "keys") + ": ", 0), 0u) << what;
  EXPECT_NE(what.find("symbolic link owned by uid 4242 to " + quoted(secret) + ", owned by uid 0"),
            std::string::npos)
      << what;
  EXPECT_EQ(read_all(secret), "root's");
  EXPECT_EQ(link_of(home / "keys"), secret.native());
  EXPECT_EQ(entries(home), std::vector<std::string>{"keys"});
  EXPECT_EQ(entries(dir.path()), (std::vector<std::string>{"authorized_keys", "home"}));
  // all_on_close resolves the path by the same rules.
  auto synced =
      thrown([&] { writer(home / "keys", {.durability = sluice::durability::all_on_close}); });
  ASSERT_TRUE(synced);
  EXPECT_EQ(synced->code().value(), EACCES);
  EXPECT_EQ(read_all(secret), "root's");
}

// Where the link leads to the user's own file, it is followed, and the file
// stays the user's.
TEST_F(replace_through_a_users_link, a_link_to_the_users_own_file_is_followed) {
  write_all(home / "real", "old");
  ASSERT_EQ(::chown((home / "real").c_str(), user, user_group), 0);
  ASSERT_EQ(::chmod((home / "real").c_str(), 0640), 0);
  users_link("keys", "real");
  auto e = replacing(home / "keys");
  EXPECT_FALSE(e) << e->what();
  EXPECT_EQ(read_all(home / "real"), "new");
  struct stat st {};
  ASSERT_EQ(::lstat((home / "real").c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, user);
  EXPECT_EQ(st.st_gid, user_group);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_EQ(link_of(home / "keys"), "real");
  EXPECT_EQ(entries(home), (std::vector<std::string>{"keys", "real"}));
}

// A dangling link would create a file where root, not the user, decides:
// checked against the owner of the directory it would be created in.
TEST_F(replace_through_a_users_link, a_dangling_link_into_roots_directory_is_refused) {
  std::filesystem::create_directory(dir / "etc");
  users_link("job", dir / "etc" / "cron-job");
  auto e = replacing(home / "job");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EACCES);
  EXPECT_NE(std::string(e->what()).find("which does not exist, in a directory owned by uid 0"),
            std::string::npos)
      << e->what();
  EXPECT_EQ(entries(dir / "etc"), std::vector<std::string>{});
  auto synced =
      thrown([&] { writer(home / "job", {.durability = sluice::durability::all_on_close}); });
  ASSERT_TRUE(synced);
  EXPECT_EQ(synced->code().value(), EACCES);
  EXPECT_EQ(entries(dir / "etc"), std::vector<std::string>{});
  // Into the user's own directory, it is followed.
  users_link("own", home / "created");
  EXPECT_FALSE(replacing(home / "own"));
  EXPECT_EQ(read_all(home / "created"), "new");
}

// Root's own links are followed wherever they lead, a user's directory included.
TEST_F(replace_through_a_users_link, roots_own_links_are_followed) {
  auto secret = dir / "authorized_keys";
  write_all(secret, "root's");
  std::filesystem::create_symlink(secret, home / "roots");
  EXPECT_FALSE(replacing(home / "roots"));
  EXPECT_EQ(read_all(secret), "new");
  EXPECT_EQ(link_of(home / "roots"), secret.native());
}

// Each step of following a link failing: the constructor throws naming the
// path given (the link concerned is in the text), the links and their
// target are untouched, nothing is created.
TEST_F(replace_symlink, a_failure_while_following_a_link_replaces_nothing) {
  write_all(dir / "t", "old");
  std::filesystem::create_symlink("t", dir / "second");
  std::filesystem::create_symlink("second", dir / "first");
  struct step {
    call which;
    int nth;
    std::string says;  // in the message, besides the path given
  };
  for (const step& s :
       {step{call::open, 1, "cannot open the directory " + quoted(dir.path())},
        step{call::open, 3, "cannot open " + quoted(dir / "second")},
        step{call::facts, 2, "cannot stat " + quoted(dir / "second")},
        step{call::on_procfs, 2, "cannot statfs the directory "},
        step{call::read_link, 2, "cannot read the symbolic link " + quoted(dir / "second")}}) {
    SCOPED_TRACE(s.says);
    fake_sys fake;
    fake.fail(s.which, s.nth, EIO);
    auto e = replacing(dir / "first");
    ASSERT_TRUE(e);
    EXPECT_EQ(e->code().value(), EIO);
    std::string what = e->what();
    EXPECT_EQ(what.rfind("sluice: open " + quoted(dir / "first") + ": ", 0), 0u) << what;
    EXPECT_NE(what.find(s.says), std::string::npos) << what;
    EXPECT_EQ(read_all(dir / "t"), "old");
    EXPECT_EQ(link_of(dir / "first"), "second");
    EXPECT_EQ(link_of(dir / "second"), "t");
    EXPECT_EQ(entries(dir.path()), (std::vector<std::string>{"first", "second", "t"}));
  }
}

}  // namespace
