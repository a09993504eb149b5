// sluice-bench given hostile or careless paths for --json, --report, --svg
// and --dir: a report that must survive a failed run, narrow permissions,
// one file named twice, a FIFO with and without a reader, /dev/full, a full
// filesystem, a file size limit, links another user planted in a sticky
// directory, and the work directory's cleanup beside the user's files.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <future>
#include <set>
#include <string>
#include <vector>

#include "support/test_support.hpp"
#include "tool_run.hpp"

#ifdef SLUICE_BENCH
namespace {

using namespace sluice_test;
namespace fs = std::filesystem;

class bench_paths : public dir_test {
 protected:
  // A tiny run (a fraction of a second) with its work directory in
  // `parent` and `more` options.
  tool_result bench_in(const std::string& parent, const std::vector<std::string>& more = {},
                       const tool_limits& limits = {}) {
    std::vector<std::string> args = {"--dir",  parent, "--scenario", "bytes",
                                     "--size", "64K",  "--repeat",   "1"};
    args.insert(args.end(), more.begin(), more.end());
    return run_tool(SLUICE_BENCH, args, limits);
  }
  // The same in `dir`.
  tool_result bench(const std::vector<std::string>& more, const tool_limits& limits = {}) {
    return bench_in(dir.path().native(), more, limits);
  }
  std::string path(const std::string& name) const { return (dir / name).native(); }
  std::set<std::string> names() const {
    std::set<std::string> found;
    for (const fs::directory_entry& e : fs::directory_iterator(dir.path()))
      found.insert(e.path().filename().native());
    return found;
  }
};

mode_t mode_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

void expect_exit(const tool_result& run, int code, const std::string& message = "") {
  EXPECT_TRUE(exited_with(run.status, code)) << run.status << ": " << run.err;
  EXPECT_NE(run.err.find(message), std::string::npos) << run.err;
}

TEST_F(bench_paths, a_run_that_fails_leaves_an_existing_json_report_as_it_was) {
  write_all(dir / "old.json", "old");
  expect_exit(bench({"--json", path("old.json"), "--report", path("missing/report.html")}), 1,
              "cannot write the HTML report");
  EXPECT_EQ(read_all(dir / "old.json"), "old");
  EXPECT_EQ(names(), (std::set<std::string>{"old.json"})) << "no temporary, no work directory";
}

TEST_F(bench_paths, replaced_reports_keep_their_permissions) {
  write_all(dir / "r.json", "old");
  write_all(dir / "r.html", "old");
  ::chmod(path("r.json").c_str(), 0600);
  ::chmod(path("r.html").c_str(), 0640);
  expect_exit(bench({"--json", path("r.json"), "--report", path("r.html")}), 0);
  EXPECT_EQ(read_all(dir / "r.json").front(), '{');
  EXPECT_EQ(mode_of(path("r.json")), 0600u);
  EXPECT_EQ(mode_of(path("r.html")), 0640u);
}

TEST_F(bench_paths, one_file_for_json_and_report_is_a_usage_error) {
  std::string message = "sluice-bench: --json and --report both name '";
  expect_exit(bench({"--json", path("same"), "--report", path("same")}), 2, message);
  write_all(dir / "same", "old");
  fs::create_symlink("same", dir / "alias");
  expect_exit(bench({"--json", path("alias"), "--report", path(".") + "/same"}), 2, message);
  EXPECT_EQ(read_all(dir / "same"), "old");
}

TEST_F(bench_paths, a_report_that_is_also_a_chart_is_refused_before_anything_is_made) {
  std::string chart = path("charts/bytes.svg");
  expect_exit(
      bench({"--svg", path("charts"), "--json", chart}), 1,
      "sluice-bench: --json '" + chart + "' is also the chart '" + chart + "' that --svg writes");
  EXPECT_FALSE(fs::exists(dir / "charts"));
}

TEST_F(bench_paths, a_fifo_without_a_reader_fails_at_once_and_one_with_a_reader_gets_the_json) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  tool_result lonely = bench({"--json", path("fifo")}, {.seconds = 20});
  expect_exit(lonely, 1, "has no reader: start the program that reads this FIFO first");
  EXPECT_EQ(names(), (std::set<std::string>{"fifo"}));

  auto read = std::async(std::launch::async, [&] {
    int fd = ::open(path("fifo").c_str(), O_RDONLY | O_CLOEXEC);
    std::string text = fd < 0 ? "" : read_to_end(fd);
    if (fd >= 0) ::close(fd);
    return text;
  });
  // The reader is there once the FIFO opens for writing without blocking.
  int probe = -1;
  while ((probe = ::open(path("fifo").c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
    ASSERT_EQ(errno, ENXIO);
  tool_result fed = bench({"--json", path("fifo")}, {.seconds = 20});
  ::close(probe);
  expect_exit(fed, 0);
  EXPECT_NE(read.get().find("\"schema_version\""), std::string::npos);
}

TEST_F(bench_paths, a_report_on_dev_full_says_no_space) {
  expect_exit(bench({"--json", "/dev/full"}), 1,
              "cannot write the JSON report '/dev/full': sluice: write '/dev/full'");
  expect_exit(bench({"--report", "/dev/full"}), 1, "No space left on device");
}

TEST_F(bench_paths, a_report_on_a_full_filesystem_fails_and_keeps_the_old_one) {
  if (std::string why = needs_root(); !why.empty()) GTEST_SKIP() << why << " (mount a tmpfs)";
  temp_dir small;
  if (::mount("tmpfs", small.path().c_str(), "tmpfs", 0, "size=16k,mode=0700") != 0)
    GTEST_SKIP() << "cannot mount a 16 KiB tmpfs: " << std::strerror(errno);
  write_all(small / "r.json", "old");
  write_all(small / "filler", std::string(12 * 1024, 'f'));
  tool_result run = bench({"--json", (small / "r.json").native()});
  std::string kept = read_all(small / "r.json");
  std::size_t entries = std::distance(fs::directory_iterator(small.path()), {});
  ::umount2(small.path().c_str(), MNT_DETACH);
  expect_exit(run, 1, "No space left on device");
  EXPECT_EQ(kept, "old");
  EXPECT_EQ(entries, 2u) << "no temporary left";
}

TEST_F(bench_paths, a_file_size_limit_fails_the_methods_and_the_work_directory_goes) {
  tool_result run = bench({"--json", path("r.json")}, {.file_size = 16 * 1024});
  EXPECT_FALSE(killed(run.status)) << "killed by signal " << WTERMSIG(run.status);
  expect_exit(run, 1, "method(s) failed");
  EXPECT_NE(read_all(dir / "r.json").find("File too large"), std::string::npos);
  EXPECT_EQ(names(), (std::set<std::string>{"r.json"})) << "the work directory was removed";
}

// Links owned by uid 65534 in a sticky world-writable directory, as another
// user would plant them in /tmp before the run.
class planted_links : public bench_paths {
 protected:
  void SetUp() override {
    if (std::string why = needs_root(); !why.empty()) GTEST_SKIP() << why << " (lchown)";
    fs::create_directory(dir / "sticky");
    ::chmod(path("sticky").c_str(), 01777);
    fs::create_directory(dir / "mine");
    write_all(dir / "mine" / "victim", "mine");
  }
  std::string plant(const std::string& name, const fs::path& to) {
    fs::path link = dir / "sticky" / name;
    fs::create_symlink(to, link);
    EXPECT_EQ(::lchown(link.c_str(), 65534, 65534), 0);
    return link.native();
  }
};

TEST_F(planted_links, reports_are_not_written_through_them) {
  expect_exit(bench({"--json", plant("r.json", dir / "mine" / "victim")}), 1, "not followed");
  expect_exit(bench({"--report", plant("r.html", dir / "mine" / "victim")}), 1, "not followed");
  EXPECT_EQ(read_all(dir / "mine" / "victim"), "mine");
}

TEST_F(planted_links, a_charts_directory_planted_as_a_link_is_refused) {
  expect_exit(bench({"--svg", plant("charts", dir / "mine")}), 1,
              "cannot make the charts' directory");
  EXPECT_FALSE(fs::exists(dir / "mine" / "bytes.svg"));
}

TEST_F(bench_paths, charts_are_not_written_through_another_users_link_in_their_directory) {
  if (std::string why = needs_root(); !why.empty()) GTEST_SKIP() << why << " (lchown)";
  fs::create_directory(dir / "charts");
  write_all(dir / "victim", "mine");
  fs::create_symlink(dir / "victim", dir / "charts" / "bytes.svg");
  ASSERT_EQ(::lchown(path("charts/bytes.svg").c_str(), 65534, 65534), 0);
  expect_exit(bench({"--svg", path("charts")}), 1, "not followed");
  EXPECT_EQ(read_all(dir / "victim"), "mine");
}

TEST_F(bench_paths, a_charts_directory_that_is_a_dangling_link_is_named_as_one) {
  fs::create_symlink(dir / "nowhere", dir / "charts");
  expect_exit(bench({"--svg", path("charts")}), 1,
              path("charts") + "' is a symbolic link that leads nowhere");
  EXPECT_FALSE(fs::exists(dir / "nowhere"));
}

TEST_F(bench_paths, the_cleanup_removes_only_the_work_directory) {
  write_all(dir / "keep", "keep");
  fs::create_directory(dir / "sub");
  write_all(dir / "sub" / "keep", "keep");
  fs::create_symlink(dir / "sub", dir / "link");
  expect_exit(bench({"--json", path("r.json"), "--report", path("r.html"), "--svg", path("sub")}),
              0);
  EXPECT_EQ(names(), (std::set<std::string>{"keep", "sub", "link", "r.json", "r.html"}));
  EXPECT_EQ(read_all(dir / "sub" / "keep"), "keep");
  EXPECT_TRUE(fs::exists(dir / "sub" / "bytes.svg"));
}

TEST_F(bench_paths, a_dir_others_may_write_without_the_sticky_bit_is_refused) {
  ::chmod(dir.path().c_str(), 0777);
  expect_exit(bench({}), 1,
              "will not work in '" + dir.path().native() +
                  "': its group or others may write it and it is not sticky");
  EXPECT_TRUE(names().empty());
  ::chmod(dir.path().c_str(), 01777);
  expect_exit(bench({}), 0);
  ::chmod(dir.path().c_str(), 0700);
}

// A directory above --dir where another user could rename --dir (or what
// leads to it) and put a link there is refused as --dir itself is.
TEST_F(bench_paths, a_dir_below_one_others_may_write_without_the_sticky_bit_is_refused) {
  fs::create_directories(dir / "open" / "mine");
  ::chmod(path("open").c_str(), 0777);
  ::chmod(path("open/mine").c_str(), 0700);
  expect_exit(bench_in(path("open/mine")), 1,
              "will not work in '" + path("open/mine") + "': its group or others may write '" +
                  fs::canonical(dir / "open").native() + "' above it and it is not sticky");
  EXPECT_TRUE(fs::is_empty(dir / "open" / "mine"));
  ::chmod(path("open").c_str(), 01777);
  expect_exit(bench_in(path("open/mine")), 0);
  ::chmod(path("open").c_str(), 0700);
}

TEST_F(bench_paths, a_dir_below_another_users_is_refused) {
  if (std::string why = needs_root(); !why.empty()) GTEST_SKIP() << why << " (chown)";
  fs::create_directories(dir / "theirs" / "mine");
  ::chmod(path("theirs").c_str(), 0755);
  ASSERT_EQ(::chown(path("theirs").c_str(), 65534, 65534), 0);
  tool_result run = bench_in(path("theirs/mine"));
  ASSERT_EQ(::chown(path("theirs").c_str(), 0, 0), 0);
  expect_exit(run, 1,
              "will not work in '" + path("theirs/mine") + "': '" +
                  fs::canonical(dir / "theirs").native() + "' above it belongs to uid 65534");
  EXPECT_TRUE(fs::is_empty(dir / "theirs" / "mine"));
}

TEST_F(bench_paths, a_dir_of_another_user_is_refused) {
  if (std::string why = needs_root(); !why.empty()) GTEST_SKIP() << why << " (chown)";
  ASSERT_EQ(::chown(dir.path().c_str(), 65534, 65534), 0);
  tool_result run = bench({});
  ASSERT_EQ(::chown(dir.path().c_str(), 0, 0), 0);
  expect_exit(run, 1, "': it belongs to uid 65534");
  EXPECT_TRUE(names().empty());
}

}  // namespace
#endif
