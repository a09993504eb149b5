// sluice-bin2text and sluice-text2bin given hostile or careless paths: the
// output naming the input (by the same path, a hard link, a symbolic link,
// or standard input redirected from it), a FIFO or a device as the output,
// a file size limit, an output that keeps narrow permissions, a link
// another user planted in a sticky directory. Each is refused before any
// work with a message that says why, or done without loss.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/test_support.hpp"
#include "tool_run.hpp"

#if defined(SLUICE_BIN2TEXT) && defined(SLUICE_TEXT2BIN)
namespace {

using namespace sluice_test;
namespace fs = std::filesystem;

constexpr const char* csv = "id\n1\n2\n3\n";
const std::string records("\1\0\0\0\2\0\0\0\3\0\0\0", 12);

class converter_paths : public dir_test {
 protected:
  void SetUp() override {
    write_all(dir / "in.csv", csv);
    write_all(dir / "in.bin", records);
  }
  // sluice-text2bin and sluice-bin2text (CSV, one i32) on `input`, to `output`.
  tool_result text2bin(const std::string& input, const std::string& output,
                       const tool_limits& limits = {}) {
    return run_tool(SLUICE_TEXT2BIN, {"--schema", "id:i32", "--format", "csv", input, "-o", output},
                    limits);
  }
  tool_result bin2text(const std::string& input, const std::string& output,
                       const tool_limits& limits = {}) {
    return run_tool(SLUICE_BIN2TEXT, {"--schema", "id:i32", "--format", "csv", input, "-o", output},
                    limits);
  }
  std::string path(const char* name) const { return (dir / name).native(); }
};

void expect_refused(const tool_result& run, const std::string& message) {
  EXPECT_TRUE(exited_with(run.status, 1)) << run.status << ": " << run.err;
  EXPECT_NE(run.err.find(message), std::string::npos) << run.err;
}

TEST_F(converter_paths, an_output_that_is_the_input_is_refused_and_the_input_kept) {
  expect_refused(text2bin(path("in.csv"), path("in.csv")),
                 "sluice-text2bin: the output '" + path("in.csv") +
                     "' is the input: the conversion would replace what it reads");
  expect_refused(bin2text(path("in.bin"), path("in.bin")), "' is the input");
  ASSERT_EQ(::link(path("in.csv").c_str(), path("hard.csv").c_str()), 0);
  expect_refused(text2bin(path("in.csv"), path("hard.csv")), "' is the input");
  fs::create_symlink("in.bin", dir / "soft.bin");
  expect_refused(bin2text(path("soft.bin"), path("in.bin")), "' is the input");
  expect_refused(text2bin("-", path("in.csv"), {.input = path("in.csv")}),
                 "' is the input (standard input)");
  EXPECT_EQ(read_all(dir / "in.csv"), csv);
  EXPECT_EQ(read_all(dir / "in.bin"), records);
}

TEST_F(converter_paths, a_fifo_or_a_device_as_output_is_refused_saying_what_to_do) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  expect_refused(bin2text(path("in.bin"), path("fifo")),
                 "the output '" + path("fifo") +
                     "' is a FIFO: a file output is written beside it and renamed over it once "
                     "complete, which needs a regular file; to write into it as the conversion "
                     "goes, give -o - and redirect standard output to it");
  expect_refused(text2bin(path("in.csv"), "/dev/full"), "'/dev/full' is a character device");
  expect_refused(bin2text(path("in.bin"), dir.path().native()), "' is a directory");
}

TEST_F(converter_paths, a_file_size_limit_is_an_error_and_the_old_output_stays) {
  std::string big(400000, 'x');
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 7);
  write_all(dir / "big.bin", big);
  write_all(dir / "out.csv", "old");
  tool_result run = bin2text(path("big.bin"), path("out.csv"), {.file_size = 64 * 1024});
  EXPECT_FALSE(killed(run.status)) << "killed by signal " << WTERMSIG(run.status);
  expect_refused(run, "File too large");
  EXPECT_EQ(read_all(dir / "out.csv"), "old");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 4)
      << "no temporary left beside in.csv, in.bin, big.bin and out.csv";
}

TEST_F(converter_paths, a_replaced_output_keeps_its_narrow_permissions) {
  write_all(dir / "out.csv", "old");
  fs::permissions(dir / "out.csv", fs::perms::owner_read | fs::perms::owner_write);
  tool_result run = bin2text(path("in.bin"), path("out.csv"));
  EXPECT_TRUE(exited_with(run.status, 0)) << run.status << ": " << run.err;
  EXPECT_EQ(read_all(dir / "out.csv"), csv);
  struct stat st {};
  ASSERT_EQ(::stat(path("out.csv").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
}

TEST_F(converter_paths, a_link_another_user_planted_in_a_sticky_directory_is_not_written_through) {
  if (std::string why = needs_root(); !why.empty()) GTEST_SKIP() << why;
  fs::create_directory(dir / "sticky");
  ::chmod(path("sticky").c_str(), 01777);
  write_all(dir / "victim", "mine");
  fs::create_symlink(dir / "victim", dir / "sticky" / "out.csv");
  ASSERT_EQ(::lchown((dir / "sticky" / "out.csv").c_str(), 65534, 65534), 0);
  expect_refused(bin2text(path("in.bin"), (dir / "sticky" / "out.csv").native()), "not followed");
  EXPECT_EQ(read_all(dir / "victim"), "mine");
}

}  // namespace
#endif
