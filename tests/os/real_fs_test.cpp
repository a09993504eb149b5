// Real kernel failures, no seam: EFBIG at RLIMIT_FSIZE (in a child process)
// and ENOSPC on a full tmpfs (when this process may mount one). Both must
// leave the file holding exactly the bytes before the error's offset.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <optional>
#include <sluice/sluice.hpp>
#include <string>

#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::writer;

constexpr std::size_t kib = 1024;
constexpr std::size_t mib = 1024 * kib;

class real_fs : public dir_test, public testing::WithParamInterface<std::size_t> {};

// What the child process saw, sent to the parent through a pipe.
struct child_report {
  int stage = 0;  // 0 nothing happened, 1 write_error caught, 2 something else went wrong
  int error = 0;
  std::uint64_t offset = 0;
  std::uint64_t tell = 0;
  std::uint64_t buffered = 0;
  int close_error = 0;
};

// In the child: write `model` in `chunk`-byte writes under a file size limit.
child_report write_under_limit(const std::filesystem::path& path, const std::string& model,
                               std::size_t chunk, std::uint64_t limit) {
  child_report report;
  std::signal(SIGXFSZ, SIG_IGN);  // get EFBIG instead of being killed
  rlimit cap{limit, limit};
  if (::setrlimit(RLIMIT_FSIZE, &cap) != 0) return {.stage = 2, .error = errno};
  try {
    writer out(path, {.buffer_size = 4096});
    try {
      for (std::size_t at = 0; at < model.size(); at += chunk)
        out.write(std::string_view(model).substr(at, chunk));
      out.close();
    } catch (const sluice::write_error& e) {
      report = {1, e.code().value(), e.offset(), out.tell(), out.buffered(), 0};
      try {
        out.close();
      } catch (const std::system_error& again) {
        report.close_error = again.code().value();
      }
    }
  } catch (const std::exception&) {
    report.stage = 2;
  }
  return report;
}

TEST_P(real_fs, efbig_at_the_file_size_limit) {
  constexpr std::uint64_t limit = 100'000;  // not a multiple of the buffer: a real short write
  std::size_t chunk = GetParam();
  auto path = dir / "limited";
  std::string model = pattern(mib);
  int channel[2];
  ASSERT_EQ(::pipe(channel), 0);
  pid_t child = ::fork();
  ASSERT_NE(child, -1) << std::strerror(errno);
  if (child == 0) {
    ::close(channel[0]);
    child_report report = write_under_limit(path, model, chunk, limit);
    bool sent = ::write(channel[1], &report, sizeof report) == sizeof report;
    ::_exit(sent ? 0 : 3);
  }
  ::close(channel[1]);
  child_report report;
  ssize_t got = ::read(channel[0], &report, sizeof report);
  ::close(channel[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  ASSERT_EQ(WEXITSTATUS(status), 0);
  ASSERT_EQ(got, static_cast<ssize_t>(sizeof report));
  ASSERT_EQ(report.stage, 1) << "no write_error: errno " << report.error;
  EXPECT_EQ(report.error, EFBIG);
  EXPECT_EQ(report.offset, limit);
  EXPECT_EQ(report.tell - report.buffered, report.offset);
  EXPECT_EQ(report.close_error, EFBIG);  // the error sticks through close
  EXPECT_EQ(size_on_disk(path), report.offset);
  EXPECT_TRUE(read_all(path) == model.substr(0, report.offset));
}

// Unmounts on destruction.
class mounted {
 public:
  explicit mounted(std::filesystem::path where) : where_(std::move(where)) {}
  mounted(const mounted&) = delete;
  mounted& operator=(const mounted&) = delete;
  ~mounted() {
    if (::umount(where_.c_str()) != 0) ::umount2(where_.c_str(), MNT_DETACH);
  }

 private:
  std::filesystem::path where_;
};

TEST_P(real_fs, enospc_on_a_full_tmpfs) {
  if (::geteuid() != 0) GTEST_SKIP() << "mounting a tmpfs needs root";
  auto where = dir / "mnt";
  std::filesystem::create_directory(where);
  if (::mount("tmpfs", where.c_str(), "tmpfs", 0, "size=1m") != 0)
    GTEST_SKIP() << "mount -t tmpfs -o size=1m tmpfs " << where << ": " << std::strerror(errno);
  mounted tmpfs(where);
  ASSERT_LE(std::filesystem::space(where).capacity, std::uintmax_t{1} << 20) << "not mounted";

  std::size_t chunk = GetParam();
  auto path = where / "full";
  std::string model = pattern(4 * mib);
  std::optional<sluice::write_error> e;
  {
    writer out(path, {.buffer_size = 64 * kib});
    for (std::size_t at = 0; at < model.size() && !e; at += chunk)
      e = thrown<sluice::write_error>(
          [&] { out.write(std::string_view(model).substr(at, chunk)); });
    if (!e) e = thrown<sluice::write_error>([&] { out.close(); });
    ASSERT_TRUE(e) << "4 MiB fit in a 1 MiB tmpfs";
    EXPECT_EQ(e->code().value(), ENOSPC) << e->what();
    EXPECT_NE(std::string(e->what()).find("write " + quoted(path) + " at offset "),
              std::string::npos);
    EXPECT_GT(e->offset(), 0u);
    EXPECT_LE(e->offset(), mib);
    EXPECT_EQ(out.tell() - out.buffered(), e->offset());
    EXPECT_EQ(size_on_disk(path), e->offset());
    EXPECT_TRUE(read_all(path) == model.substr(0, e->offset())) << "lost or duplicated bytes";
    auto again = thrown<sluice::write_error>([&] { out.close(); });
    ASSERT_TRUE(again);
    EXPECT_EQ(again->offset(), e->offset());
  }
  EXPECT_EQ(size_on_disk(path), e->offset());
}

// With the tests' buffers (4 KiB, 64 KiB), 1000-byte writes are copied into the
// buffer and 300000-byte ones go out gathered.
INSTANTIATE_TEST_SUITE_P(chunk, real_fs, testing::Values(std::size_t{1000}, std::size_t{300000}));

}  // namespace
