// writer_options::atomic_replace: the path holds the complete old content or
// the complete new one, never anything else, and no temporary is left behind
// except by a killed process, under a recognisable name.
#include <gtest/gtest.h>

#ifndef _WIN32
#include <fcntl.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <random>
#include <set>
#include <sluice/sluice.hpp>
#include <string>
#include <thread>
#include <vector>

#include "support/fake_sys.hpp"
#include "support/filesystem.hpp"
#include "support/platform.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::writer;

using atomic_replace = dir_test;

constexpr sluice::writer_options replace{.atomic_replace = true};

// How the temporary is renamed into place, and deleted when given up: by
// its name, or on Windows through its own handle (replace_win32_test.cpp).
#ifdef _WIN32
constexpr call renames = call::rename_held, removes = call::remove_held;
#else
constexpr call renames = call::rename, removes = call::remove;
#endif

bool is_temporary_of(const std::string& name, const std::string& target) {
  return name.rfind("." + target + ".sluice-tmp-", 0) == 0 && name.size() == target.size() + 13 + 8;
}

TEST_F(atomic_replace, the_old_content_stays_until_close_installs_the_new) {
  auto path = dir / "t";
  write_all(path, "old content");
  writer out(path, replace);
  out.write(std::string_view("new content, longer than the old"));
  out.flush();
  EXPECT_EQ(read_all(path), "old content");
  out.close();
  EXPECT_EQ(read_all(path), "new content, longer than the old");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"t"});
}

TEST_F(atomic_replace, a_new_path_appears_only_at_close) {
  auto path = dir / "t";
  writer out(path, replace);
  out.write(std::string_view("content"));
  out.flush();
  EXPECT_FALSE(std::filesystem::exists(path));
  out.close();
  EXPECT_EQ(read_all(path), "content");
}

TEST_F(atomic_replace, a_writer_destroyed_without_close_leaves_the_target_untouched) {
  auto path = dir / "t";
  write_all(path, "old");
  {
    writer out(path, replace);
    out.write(pattern(1 << 20));
  }
  EXPECT_EQ(read_all(path), "old");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"t"});
}

// The path is resolved through held descriptors (its directory, then the
// name in it, both O_PATH), and the directory is opened for reading before
// anything is created, so that nothing is created unless it can be synced
// at close; the temporary is created in that directory (openat of "."), and
// closed before the rename, so that a failure to close it leaves the old
// content.
TEST_F(atomic_replace, commit_order_is_write_sync_name_close_rename_sync_directory) {
  if (auto why = needs_unnamed_temporaries(dir.path()); !why.empty()) GTEST_SKIP() << why;
  auto path = dir / "t";
  fake_sys fake;
  writer out(path, replace);
  out.write(std::string_view("content"));
  out.close();
  ASSERT_EQ(fake.opens().size(), 4u);
  if (!fake.opens()[3].unnamed_temporary || fake.calls(call::link_unnamed) == 0)
    GTEST_SKIP() << "this filesystem has no O_TMPFILE";
  using access = sluice::detail::open_request::access;
  EXPECT_EQ(fake.opens()[0].mode, access::path_only);
  EXPECT_TRUE(fake.opens()[0].directory);
  EXPECT_EQ(fake.open_paths()[0], dir.path().string());
  EXPECT_EQ(fake.opens()[1].mode, access::path_only);
  EXPECT_TRUE(fake.opens()[1].no_follow);
  EXPECT_EQ(fake.open_paths()[1], "t");
  EXPECT_EQ(fake.opens()[2].mode, access::read);
  EXPECT_TRUE(fake.opens()[2].directory);
  EXPECT_EQ(fake.open_paths()[2], ".");
  EXPECT_EQ(fake.open_paths()[3], ".");
  EXPECT_EQ(fake.log(),
            (std::vector<call>{call::effective_user, call::open, call::open, call::open,
                               call::on_procfs, call::open, call::can_link_unnamed, call::close,
                               call::write_at, call::sync_all, call::link_unnamed, call::close,
                               call::rename, call::sync_directory, call::close}));
  EXPECT_EQ(read_all(path), "content");
}

TEST_F(atomic_replace, without_o_tmpfile_a_named_temporary_is_used_and_renamed) {
  auto path = dir / "t";
  write_all(path, "old");
  fake_sys fake;
  fake.refuse_unnamed_temporary();
  writer out(path, replace);
  out.write(std::string_view("new"));
  out.flush();
  auto names = entries(dir.path());
  ASSERT_EQ(names.size(), 2u);
  EXPECT_TRUE(is_temporary_of(names[0], "t")) << names[0];
  EXPECT_TRUE(fake.opens().back().exclusive);
  out.close();
  EXPECT_EQ(fake.calls(call::link_unnamed), 0);
  EXPECT_EQ(fake.calls(renames), 1);
  EXPECT_EQ(read_all(path), "new");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"t"});
}

TEST_F(atomic_replace, a_name_of_255_bytes_is_replaced_unnamed_or_named) {
  for (bool named : {false, true}) {
    SCOPED_TRACE(named ? "named temporary" : "O_TMPFILE");
    auto path = dir / std::string(255, named ? 'n' : 'u');
    write_all(path, "old");
    fake_sys fake;
    if (named) fake.refuse_unnamed_temporary();
    replace_with(path, "new");
    EXPECT_EQ(read_all(path), "new");
    EXPECT_EQ(entries(dir.path()), std::vector<std::string>{path.filename().string()});
    std::filesystem::remove(path);
  }
}

// /proc/self/fd names an unnamed temporary at close; where it is missing
// (a sandbox, a chroot) a named temporary is taken from the start.
TEST_F(atomic_replace, without_proc_a_named_temporary_is_used) {
  auto path = dir / "t";
  write_all(path, "old");
  fake_sys fake;
  fake.fail(call::can_link_unnamed, 1, ENOENT);  // /proc/self/fd/<n>
  replace_with(path, "new");
  EXPECT_EQ(fake.calls(call::link_unnamed), 0);
  EXPECT_EQ(read_all(path), "new");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"t"});
}

// The directory is the one of open time: a chdir() before close() must not
// make the replacement land in, or sync, another directory.
TEST_F(atomic_replace, a_chdir_before_close_replaces_the_file_of_open_time) {
  for (bool named : {false, true}) {
    SCOPED_TRACE(named ? "named temporary" : "O_TMPFILE");
    auto first = dir / (named ? "a-named" : "a"), second = dir / (named ? "b-named" : "b");
    std::filesystem::create_directory(first);
    std::filesystem::create_directory(second);
    write_all(first / "t", "old a");
    write_all(second / "t", "old b");
    auto back = std::filesystem::current_path();
    std::filesystem::current_path(first);
    std::optional<std::system_error> e;
    {
      fake_sys fake;
      if (named) fake.refuse_unnamed_temporary();
      writer out("t", replace);
      out.write(std::string_view("new"));
      std::filesystem::current_path(second);
      e = thrown([&] { out.close(); });
    }
    std::filesystem::current_path(back);
    EXPECT_FALSE(e) << e->what();
    EXPECT_EQ(read_all(first / "t"), "new");
    EXPECT_EQ(read_all(second / "t"), "old b");
    EXPECT_EQ(entries(first), std::vector<std::string>{"t"});
    EXPECT_EQ(entries(second), std::vector<std::string>{"t"});
  }
}

// The directory is held from the constructor on: renamed, and another made
// at its path before close(), the new content still goes to the directory
// that was opened (the one renamed), is made durable there (its fsync), and
// no temporary is left in either.
TEST_F(atomic_replace, a_directory_renamed_and_replaced_before_close_gets_the_new_content) {
  SLUICE_SKIP_ON_WINDOWS(
      "Windows refuses to rename a directory that holds an open file (Wine lets it, and the "
      "Win32 backend, which names the temporary by its path to rename it, then misses it)");
  for (bool named : {false, true}) {
    SCOPED_TRACE(named ? "named temporary" : "O_TMPFILE");
    auto opened = dir / "d", moved = dir / "d2";
    std::filesystem::create_directory(opened);
    write_all(opened / "t", "old");
    std::optional<std::system_error> e;
    std::vector<file_identity> synced;
    {
      fake_sys fake;
      if (named) fake.refuse_unnamed_temporary();
      writer out(opened / "t", replace);
      out.write(std::string_view("new"));
      std::filesystem::rename(opened, moved);
      std::filesystem::create_directory(opened);
      e = thrown([&] { out.close(); });
      synced = fake.synced();
    }
    EXPECT_FALSE(e) << e->what();
    EXPECT_EQ(read_all(moved / "t"), "new");
    EXPECT_EQ(entries(moved), std::vector<std::string>{"t"});
    EXPECT_EQ(entries(opened), std::vector<std::string>{});
    ASSERT_FALSE(synced.empty());
    EXPECT_EQ(synced.back(), identity_of(moved)) << "the directory synced last";
    std::filesystem::remove_all(opened);
    std::filesystem::remove_all(moved);
  }
}

TEST_F(atomic_replace, a_named_temporary_is_removed_when_the_writer_gives_up) {
  auto path = dir / "t";
  write_all(path, "old");
  fake_sys fake;
  fake.refuse_unnamed_temporary();
  { writer(path, replace).write(std::string_view("abandoned")); }
  EXPECT_EQ(fake.calls(removes), 1);
  EXPECT_EQ(read_all(path), "old");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"t"});
}

// Each commit step failing: close throws naming the step, the target keeps
// its old content, no temporary remains.
TEST_F(atomic_replace, a_failure_before_the_rename_keeps_the_old_content) {
  struct step {
    call which;
    int nth;
    const char* named;
  };
  for (bool unnamed : {true, false}) {
    for (step s : {step{call::write_at, 1, "write"}, step{call::sync_all, 1, "fsync"},
                   step{call::link_unnamed, 1, "link"}, step{renames, 1, "rename"}}) {
      if (!unnamed && s.which == call::link_unnamed) continue;
      SCOPED_TRACE(std::string(unnamed ? "unnamed, " : "named, ") + s.named);
      auto path = dir / "t";
      write_all(path, "old");
      fake_sys fake;
      if (!unnamed) fake.refuse_unnamed_temporary();
      fake.fail(s.which, s.nth, EIO);
      writer out(path, replace);
      out.write(std::string_view("new"));
      auto e = thrown([&] { out.close(); });
      if (unnamed && s.which == call::link_unnamed && fake.calls(call::link_unnamed) == 0) continue;
      ASSERT_TRUE(e);
      EXPECT_EQ(e->code().value(), EIO);
      EXPECT_EQ(
          std::string(e->what()).rfind("sluice: " + std::string(s.named) + " " + quoted(path), 0),
          0u)
          << e->what();
      EXPECT_EQ(read_all(path), "old");
      EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"t"});
    }
  }
}

// For each kind of temporary (unnamed, then named: O_TMPFILE refused), a
// writer of `options` constructed on `dir`/t, which holds "old", under a
// fake that `plan(fake, named)` sets up, must throw; `check(error, fake,
// named)` looks at it, then the old file must be there, untouched and alone.
template <class Plan, class Check>
void each_temporary_failing(const temp_dir& dir, sluice::writer_options options, Plan plan,
                            Check check) {
  auto path = dir / "t";
  write_all(path, "old");
  std::string no_unnamed = needs_unnamed_temporaries(dir.path());
  for (bool named : {false, true}) {
    if (!named && !no_unnamed.empty()) continue;  // skipped below, once the named round ran
    SCOPED_TRACE(named ? "named" : "O_TMPFILE");
    fake_sys fake;
    if (named) fake.refuse_unnamed_temporary();
    plan(fake, named);
    auto e = thrown([&] { writer out(path, options); });
    ASSERT_TRUE(e);
    check(*e, fake, named);
    EXPECT_EQ(read_all(path), "old");
    EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"t"});
  }
  if (!no_unnamed.empty()) GTEST_SKIP() << "the O_TMPFILE round: " << no_unnamed;
}

// The temporary cannot be created: the error names the path given, with
// the temporary (or its directory, for O_TMPFILE) in the text.
TEST_F(atomic_replace, a_temporary_that_cannot_be_created_is_named_in_the_text) {
  auto plan = [](fake_sys& fake, bool named) {
    fake.on_open([named](const std::string&, const sluice::detail::open_request& how) {
      bool temporary = named ? how.exclusive : how.unnamed_temporary;
      return temporary ? EIO : 0;
    });
  };
  auto check = [&](const std::system_error& e, fake_sys&, bool named) {
    EXPECT_EQ(e.code().value(), EIO);
    // (the directory and the name joined by the platform's separator)
    std::string says =
        named ? "cannot create the temporary file '" + (dir / ".t.sluice-tmp-").string()
              : "cannot create the temporary file in '" + dir.path().string();
    EXPECT_EQ(std::string(e.what()).rfind("sluice: open " + quoted(dir / "t") + ": " + says, 0), 0u)
        << e.what();
  };
  each_temporary_failing(dir, replace, plan, check);
}

// caching::direct: the temporary is opened without O_DIRECT, which is set
// afterwards (F_SETFL), so that a filesystem refusing it is not taken for
// one without O_TMPFILE, and the error says so; a named temporary is
// removed.
TEST_F(atomic_replace, o_direct_refused_says_so_and_leaves_no_temporary) {
  SLUICE_SKIP_ON_WINDOWS(
      "unbuffered I/O is chosen when the temporary is created (FILE_FLAG_NO_BUFFERING), never "
      "set afterwards: replace_security.direct_refused_at_creation_leaves_nothing");
  auto plan = [](fake_sys& fake, bool) {
    fake.fail(call::set_state, 1, EINVAL);  // as a filesystem without O_DIRECT
  };
  auto check = [&](const std::system_error& e, fake_sys& fake, bool named) {
    EXPECT_EQ(e.code().value(), EINVAL);
    EXPECT_EQ(std::string(e.what()),
              "sluice: open " + quoted(dir / "t") +
                  ": the filesystem refuses O_DIRECT (caching::direct): " + std::strerror(EINVAL));
    for (const auto& how : fake.opens()) EXPECT_FALSE(how.direct);
    EXPECT_EQ(std::count_if(fake.opens().begin(), fake.opens().end(),
                            [](const auto& how) { return how.exclusive; }),
              named ? 1 : 0)
        << "EINVAL is not taken for a missing O_TMPFILE";
  };
  each_temporary_failing(dir, {.caching = sluice::caching::direct, .atomic_replace = true}, plan,
                         check);
}

#ifndef _WIN32
// Whether the backend's mount_root says that `path` (a file just mounted
// over) is a mount point.
bool backend_sees_mount_root(const std::filesystem::path& path) {
  const sluice::detail::sys_table& real = sluice::detail::real_sys();
  int fd = real.open(sluice::detail::working_directory, path.c_str(),
                     {.mode = sluice::detail::open_request::access::path_only});
  bool sees = fd >= 0 && real.mount_root(fd) == 1;
  if (fd >= 0) real.close(fd);
  return sees;
}

// A file mounted over the path (as containers mount /etc/resolv.conf)
// cannot be renamed over: refused at construction (EBUSY), not at close
// after all the data.
TEST_F(atomic_replace, a_mount_point_is_refused_before_any_data) {
  if (auto why = needs_root(); !why.empty()) GTEST_SKIP() << why;
  auto path = dir / "t", source = dir / "mounted";
  write_all(path, "old");
  write_all(source, "mounted");
  if (::mount(source.c_str(), path.c_str(), nullptr, MS_BIND, nullptr) != 0)
    GTEST_SKIP() << "cannot bind-mount here: " << std::strerror(errno);
  if (!backend_sees_mount_root(path)) {
    ::umount2(path.c_str(), MNT_DETACH);
    GTEST_SKIP() << "the backend cannot tell a file mounted over another (mount_root sees "
                    "directories only): the rename at close fails with EBUSY instead";
  }
  auto e = thrown([&] { writer out(path, replace); });
  std::string content = read_all(path);
  ::umount2(path.c_str(), MNT_DETACH);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EBUSY);
  EXPECT_NE(std::string(e->what()).find(quoted(path) + " is a mount point"), std::string::npos)
      << e->what();
  EXPECT_EQ(content, "mounted");
  EXPECT_EQ(read_all(path), "old");
  EXPECT_EQ(entries(dir.path()), (std::vector<std::string>{"mounted", "t"}));
}
#else
SLUICE_SKIPPED_ON_WINDOWS_F(atomic_replace, a_mount_point_is_refused_before_any_data,
                            "a bind mount over the path (mount(2), as root)")
#endif

// Relative link texts are followed from the link's directory, held open,
// never joined into one path: a chain whose joined text exceeds PATH_MAX
// resolves as the kernel resolves it.
TEST_F(atomic_replace, a_chain_of_long_relative_links_is_followed) {
  if (auto why = needs_symlinks(dir.path()); !why.empty()) GTEST_SKIP() << why;
  std::filesystem::create_directory(dir / "s");
  std::string detour;
  for (int i = 0; i < 150; ++i) detour += "s/../";  // 750 bytes that lead back here
  constexpr int links = 8;
  auto link_name = [](int i) {
    std::string name(1, 'l');
    name += std::to_string(i);
    return name;
  };
  for (int i = 0; i < links; ++i)
    std::filesystem::create_symlink(detour + (i + 1 < links ? link_name(i + 1) : std::string("t")),
                                    dir / link_name(i));
  write_all(dir / "t", "old");
  replace_with(dir / "l0", "new");
  EXPECT_EQ(read_all(dir / "t"), "new");
  EXPECT_EQ(std::filesystem::read_symlink(dir / "l0").string().size(), detour.size() + 2);
}

#ifndef _WIN32
TEST_F(atomic_replace, the_replaced_file_keeps_its_permission_bits) {
  auto path = dir / "secret";
  write_all(path, "old");
  ASSERT_EQ(::chmod(path.c_str(), 0600), 0);
  writer out(path, replace);
  out.write(std::string_view("new"));
  out.close();
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
}
#else
SLUICE_SKIPPED_ON_WINDOWS_F(atomic_replace, the_replaced_file_keeps_its_permission_bits,
                            "POSIX permission bits (chmod, stat)")
#endif

TEST_F(atomic_replace, needs_a_path_not_an_open_file) {
  auto e = thrown([&] { writer out(sluice::file::open(dir / "t"), replace); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EINVAL);
  EXPECT_NE(std::string(e->what()).find("atomic_replace"), std::string::npos) << e->what();
}

TEST_F(atomic_replace, a_missing_directory_throws_before_any_data_is_accepted) {
  auto e = thrown([&] { writer out(dir / "missing" / "t", replace); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), ENOENT);
  EXPECT_NE(std::string(e->what()).find(quoted(dir / "missing" / "t")), std::string::npos)
      << e->what();
}

TEST_F(atomic_replace, works_with_preallocation) {
  auto path = dir / "t";
  write_all(path, "old");
  std::string data = pattern(300'000);
  writer out(path, {.preallocate = 1 << 20, .atomic_replace = true});
  out.write(data);
  out.close();
  EXPECT_EQ(read_all(path), data);
  EXPECT_EQ(size_on_disk(path), data.size());
}

// --- the directory close() syncs ------------------------------------------------------

#ifndef _WIN32
// The directory is opened before anything is created: in one the caller may
// write but not read (mode 0300), whose fsync is impossible, the writer
// throws at construction, naming it, and the directory stays as it was.
// all_on_close of an existing file needs no directory sync and works there.
TEST_F(atomic_replace, a_directory_that_cannot_be_synced_fails_the_constructor) {
  if (auto why = needs_other_users(dir.path()); !why.empty()) GTEST_SKIP() << why;
  constexpr uid_t user = 4242;
  ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);
  auto locked = dir / "locked";
  std::filesystem::create_directory(locked);
  write_all(locked / "t", "old");
  ASSERT_EQ(::chown((locked / "t").c_str(), user, user), 0);
  ASSERT_EQ(::chown(locked.c_str(), user, user), 0);
  ASSERT_EQ(::chmod(locked.c_str(), 0300), 0);
  std::string said = as_user(user, user, [&] {
    std::string result;
    for (auto options :
         {replace, sluice::writer_options{.durability = sluice::durability::all_on_close}}) {
      for (const char* name : {"t", "new"}) {
        if (!options.atomic_replace && std::string(name) == "t") continue;
        try {
          writer out(locked / name, options);
          result += std::string(name) + ": opened; ";
        } catch (const std::system_error& e) {
          result +=
              std::string(name) + ": " + std::to_string(e.code().value()) + " " + e.what() + "; ";
        }
      }
    }
    try {  // an existing file, all_on_close: only the file is synced
      writer out(locked / "t", {.durability = sluice::durability::all_on_close});
      out.write(std::string_view("new"));
      out.close();
      result += "existing: written";
    } catch (const std::system_error& e) {
      result += std::string("existing: ") + e.what();
    }
    return result;
  });
  std::string refused = std::to_string(EACCES) + " sluice: open '" + (locked / "t").string() +
                        "': cannot open its directory '" + locked.string() +
                        "' to sync it at close; nothing was created: " + std::strerror(EACCES);
  std::string refused_new = refused;
  refused_new.replace(refused_new.find("/t'"), 3, "/new'");
  EXPECT_EQ(said, "t: " + refused + "; new: " + refused_new + "; new: " + refused_new +
                      "; existing: written");
  ASSERT_EQ(::chmod(locked.c_str(), 0700), 0);
  EXPECT_EQ(entries(locked), std::vector<std::string>{"t"});
  EXPECT_EQ(read_all(locked / "t"), "new");
}
#else
SLUICE_SKIPPED_ON_WINDOWS_F(atomic_replace, a_directory_that_cannot_be_synced_fails_the_constructor,
                            "a directory of mode 0300 entered as another user (chown, fork)")
#endif

TEST_F(atomic_replace, a_directory_that_cannot_be_opened_leaves_nothing_behind) {
  auto path = dir / "t";
  write_all(path, "old");
  fake_sys fake;
  fake.on_open([](const std::string&, const sluice::detail::open_request& how) {
    // the directory, for reading
    using access = sluice::detail::open_request::access;
    return how.directory && how.mode != access::path_only ? EACCES : 0;
  });
  auto e = thrown([&] { writer out(path, replace); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EACCES);
#ifdef _WIN32
  // resolve_target_win32.cpp opens the directory first, and for reading.
  EXPECT_NE(std::string(e->what()).find("cannot open the directory " + quoted(dir.path())),
            std::string::npos)
      << e->what();
  EXPECT_EQ(fake.calls(call::open), 1) << "the directory, then nothing";
#else
  EXPECT_NE(std::string(e->what()).find("cannot open its directory " + quoted(dir.path())),
            std::string::npos)
      << e->what();
  EXPECT_EQ(fake.calls(call::open), 3) << "the directory and the file O_PATH, then for reading";
#endif
  EXPECT_EQ(read_all(path), "old");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"t"});
}

// close() before the rename: its failure leaves the old content.
TEST_F(atomic_replace, a_failed_close_of_the_temporary_keeps_the_old_content) {
  SLUICE_SKIP_ON_WINDOWS(
      "the temporary is closed after the rename, which goes through its handle "
      "(replace_win32_test.cpp)");
  for (bool named : {false, true}) {
    SCOPED_TRACE(named ? "named" : "O_TMPFILE");
    auto path = dir / "t";
    write_all(path, "old");
    fake_sys fake;
    if (named) fake.refuse_unnamed_temporary();
    writer out(path, replace);
    out.write(std::string_view("new"));
    fake.fail(call::close, fake.calls(call::close) + 1, EIO);
    auto e = thrown([&] { out.close(); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->code().value(), EIO);
    EXPECT_EQ(fake.calls(call::rename), 0);
    EXPECT_EQ(read_all(path), "old");
    EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"t"});
  }
}

// After the rename only the directory's fsync and close remain (and on
// Windows the temporary's close): a failure there names the path given,
// the directory in the text, and the new content is in place (the fsync's
// message says that it may not survive a power loss).
TEST_F(atomic_replace, a_failure_after_the_rename_says_the_new_content_is_in_place) {
  auto path = dir / "t";
  struct step {
    call which;
    int after;  // calls to it after those of the constructor and the writes
    std::string what;
  };
  std::vector<step> steps{
      step{call::sync_directory, 1,  // after the temporary's sync_all
           "sluice: fsync " + quoted(path) + ": the rename over " + quoted(path) +
               " is done, but its directory " + quoted(dir.path()) +
               " could not be synced, so it may not survive a power loss"},
      step{call::close, 2,  // the temporary's, then the directory's
           "sluice: close " + quoted(path) + ": cannot close its directory " + quoted(dir.path())}};
#ifdef _WIN32
  // The temporary is closed after the rename, which went through its handle.
  steps.push_back({call::close, 1,
                   "sluice: close " + quoted(path) + ": the rename over " + quoted(path) +
                       " is done, but the new file's handle could not be closed"});
#endif
  for (const step& s : steps) {
    SCOPED_TRACE(s.what);
    write_all(path, "old");
    fake_sys fake;
    writer out(path, replace);
    out.write(std::string_view("new"));
    fake.fail(s.which, fake.calls(s.which) + s.after, EIO);
    auto e = thrown([&] { out.close(); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->code().value(), EIO);
    EXPECT_EQ(std::string(e->what()), s.what + ": " + std::strerror(EIO));
    EXPECT_EQ(read_all(path), "new");
    EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"t"});
  }
}

#ifndef _WIN32
// --- a process killed at random moments ------------------------------------------------

// Version `n` of the file: a header with its number and length, a body that
// depends on both, and an end mark. Lengths vary so that a mix of two
// versions could not pass for one.
std::string version(std::uint64_t n) {
  std::size_t length = 1 + (n * 7919) % 400'000;
  return "version " + std::to_string(n) + " " + std::to_string(length) + "\n" + pattern(length, n) +
         "\nend\n";
}

// Whether `content` is exactly one version.
bool is_one_version(const std::string& content) {
  std::uint64_t n = 0;
  if (std::sscanf(content.c_str(), "version %lu", &n) != 1) return false;
  return content == version(n);
}

// In the child: replaces `path` with version after version until killed,
// through named temporaries if `named`. An error ends the child with status
// 1, never by returning into the tests.
[[noreturn]] void replace_forever(const std::filesystem::path& path, bool named) {
  try {
    std::optional<fake_sys> fake;
    if (named) fake.emplace().refuse_unnamed_temporary();
    for (std::uint64_t n = 1;; ++n) {
      writer out(path, replace);
      std::string content = version(n);
      for (std::size_t at = 0; at < content.size(); at += 4096)
        out.write(std::string_view(content).substr(at, 4096));
      out.close();
    }
  } catch (...) {
    ::_exit(1);
  }
}

class atomic_replace_killed : public dir_test, public testing::WithParamInterface<bool> {};

TEST_P(atomic_replace_killed, at_any_moment_leaves_one_complete_version) {
  bool named = GetParam();
  auto path = dir / "t";
  write_all(path, version(0));
  std::mt19937_64 random(std::random_device{}());
  constexpr int rounds = 60;
  int leftovers = 0;
  std::set<std::string> seen;
  for (int round = 0; round < rounds; ++round) {
    pid_t child = ::fork();
    ASSERT_NE(child, -1);
    if (child == 0) replace_forever(path, named);
    std::this_thread::sleep_for(std::chrono::microseconds(random() % 20'000));
    ::kill(child, SIGKILL);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the child stopped by itself";
    std::string content = read_all(path);
    ASSERT_TRUE(is_one_version(content)) << "round " << round;
    seen.insert(content.substr(0, content.find('\n')));
    for (const auto& name : entries(dir.path())) {
      if (name == "t") continue;
      ASSERT_TRUE(is_temporary_of(name, "t")) << "unrecognisable leftover " << name;
      std::filesystem::remove(dir / name);
      ++leftovers;
    }
  }
  std::printf(
      "[          ] %d kills, %zu versions seen, %d leftover temporaries, all named "
      ".t.sluice-tmp-*\n",
      rounds, seen.size(), leftovers);
}

INSTANTIATE_TEST_SUITE_P(temporary, atomic_replace_killed, testing::Values(false, true),
                         [](const auto& info) { return info.param ? "named" : "unnamed"; });
#else
SLUICE_SKIPPED_ON_WINDOWS(atomic_replace_killed, at_any_moment_leaves_one_complete_version,
                          "a child process killed at random moments (fork, SIGKILL)")
#endif

}  // namespace
