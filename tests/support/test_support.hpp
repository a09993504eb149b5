// Helpers every sluice test shares: a fresh temporary directory per test,
// reading a file back, capturing what the error handler is told, and
// restoring the umask.
#pragma once

#include <gtest/gtest.h>

#ifndef _WIN32
#include <sys/types.h>
#endif

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include "os/path_text.hpp"
#include "os/sys.hpp"
#include "sluice/error.hpp"
#include "sluice/file.hpp"

namespace sluice {
class writer;
}

namespace sluice_test {

// The bytes of `text`, as sluice::file takes them.
inline std::span<const std::byte> bytes_of(std::string_view text) {
  return std::as_bytes(std::span(text.data(), text.size()));
}

// The bytes as text: the reverse of bytes_of.
inline std::string text_of(std::span<const std::byte> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// The exception of type Error that `body` throws, or nothing if it returns.
// Any other exception propagates (and fails the test).
template <class Error = std::system_error, class Body>
std::optional<Error> thrown(Body&& body) {
  try {
    body();
  } catch (const Error& e) {
    return e;
  }
  return std::nullopt;
}

// "'<path>'", as error messages quote a path.
inline std::string quoted(const std::filesystem::path& path) {
  std::string text = "'";
  text += sluice::detail::path_text(path);
  return text += "'";
}

// A fresh directory under $TMPDIR (or /tmp, or `base`; on Windows, under
// its temporary directory: TMP, TEMP), made with mkdtemp (a unique name and
// create_directory on Windows), removed with everything inside it on
// destruction.
class temp_dir {
 public:
  temp_dir();
  explicit temp_dir(const std::filesystem::path& base);
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  ~temp_dir();

  const std::filesystem::path& path() const noexcept { return path_; }
  std::filesystem::path operator/(std::string_view name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

// The fixture most tests use: one fresh directory per test.
class dir_test : public ::testing::Test {
 protected:
  temp_dir dir;
};

// The whole content of `path` (fails the test if it cannot be read).
std::string read_all(const std::filesystem::path& path);

// Writes `content` to `path` with the standard library (not through sluice).
void write_all(const std::filesystem::path& path, std::string_view content);
// The size of `path` (std::filesystem, not through sluice).
std::uint64_t size_on_disk(const std::filesystem::path& path);
// Bytes `path` occupies on disk (st_blocks; GetCompressedFileSizeW on
// Windows), which a reservation past its end counts although its size does not.
std::uint64_t allocated(const std::filesystem::path& path);

// Which file `path` is, the same across renames: its device and inode
// (st_dev, st_ino; the volume serial number and file index on Windows).
// Fails the test and says {0, 0} if `path` cannot be reached.
struct file_identity {
  std::uint64_t device = 0, inode = 0;
  bool operator==(const file_identity&) const = default;
};
file_identity identity_of(const std::filesystem::path& path);

// The names in `directory`, sorted.
std::vector<std::string> entries(const std::filesystem::path& directory);

// Replaces `path` with `content` through a writer with
// writer_options::atomic_replace and a 4 KiB buffer (so that the
// temporary takes several writes), and closes it.
void replace_with(const std::filesystem::path& path, std::string_view content);

// `n` bytes of a pattern that depends on `seed`, so that misplaced or
// duplicated bytes show.
std::string pattern(std::size_t n, std::uint64_t seed = 1);

// Buffers of the given sizes for scatter reads (file::read_gather,
// reader::read_into), filled with '.' so that bytes not read show.
class scatter {
 public:
  explicit scatter(const std::vector<std::size_t>& sizes) {
    for (std::size_t size : sizes) storage_.emplace_back(size, '.');
    for (auto& piece : storage_) spans_.push_back(std::as_writable_bytes(std::span(piece)));
  }
  std::span<const std::span<std::byte>> buffers() const { return spans_; }
  // Every buffer's bytes, one after the other.
  std::string joined() const {
    std::string all;
    for (const auto& piece : storage_) all += piece;
    return all;
  }

 private:
  std::vector<std::string> storage_;
  std::vector<std::span<std::byte>> spans_;
};

// Up to `n` bytes of `f` from `offset`, through file::read_at.
std::string read_text(sluice::file& f, std::size_t n, std::uint64_t offset);

// Writes `text` one byte at a time (put()).
void put_all(sluice::writer& out, std::string_view text);

// Prints i * 7919 and a newline for i = 0, 1, 2... (print() and put(), so
// that numbers straddle buffer ends) until `bytes` bytes or more are
// printed; returns the text.
std::string print_numbers(sluice::writer& out, std::size_t bytes);

// What a disk that zeroes blocks without writing them leaves, made with the
// real backend for seams that emulate such a disk: [offset, offset +
// length) of `fd` reserved (preallocate, space_mode::grow; only written
// where the backend refuses that, EOPNOTSUPP) and written with zeros. 0, or
// -1 with errno.
int zero_by_hand(sluice::detail::handle fd, std::int64_t offset, std::int64_t length);

// Installs an error handler that records every report; restores the previous
// handler on destruction. One at a time.
class captured_reports {
 public:
  struct report {
    std::error_code code;
    std::string message;
  };
  captured_reports();
  captured_reports(const captured_reports&) = delete;
  captured_reports& operator=(const captured_reports&) = delete;
  ~captured_reports();

  const std::vector<report>& reports() const noexcept { return reports_; }

 private:
  static void record(const std::error_code& code, std::string_view message) noexcept;
  static captured_reports* active_;
  sluice::error_handler previous_;
  std::vector<report> reports_;
};

// What the default error handler prints on stderr while `body` runs: the
// handler installed before is put back afterwards.
std::string stderr_of(const std::function<void()>& body);

#ifndef _WIN32
// ---- POSIX only (posix_support.cpp): descriptors, processes, users,
// /proc, the umask. A test that needs one of these is compiled for POSIX
// systems alone, and stands in on Windows with a test that skips, saying
// why (support/platform.hpp).

// Whether thread `tid` of this process is asleep (state S: waiting on a
// futex, among others), from /proc/self/task/<tid>/stat; false once it has
// ended. How a test knows a thread waits, without sleeping for a while.
bool asleep(pid_t tid);

// What descriptor `fd` (a pipe's reading end, say) gives until its end, or
// until `limit` bytes, with read(2).
std::string read_to_end(int fd, std::size_t limit = std::string::npos);

// Runs `body` in a child process that has become user `uid`, group `gid`
// (no supplementary groups; no passwd entry is needed) and returns what
// `body` returned, or "cannot become <uid>: <why>". Call it as root only
// (tests skip otherwise: see needs_root). The child ends with _exit.
std::string as_user(uid_t uid, gid_t gid, const std::function<std::string()>& body);

// The empty string if the process is root, else why a test that changes
// users must be skipped.
std::string needs_root();

// The empty string if the process is root and other users may reach `dir`
// (made by the test, which opens it to them itself), else why a test that
// works there as another user must be skipped: a $TMPDIR inside a private
// directory (mode 0700, as /run/user/<uid> is) is out of their reach. One
// child process, as user 65534.
std::string needs_other_users(const std::filesystem::path& dir);

// Runs `command` with /bin/sh -c; returns its standard output, or nothing
// if it did not exit with status 0 (its standard error goes to the test's).
std::optional<std::string> run_command(const std::string& command);

// The empty string if the command-line tool `name` can be run, else why a
// test that uses it must be skipped.
std::string needs_tool(const std::string& name);

// Both ends of a pipe(2), closed on destruction unless taken.
class pipe_ends {
 public:
  explicit pipe_ends(int flags = 0);  // pipe2 flags beside O_CLOEXEC (O_NONBLOCK)
  pipe_ends(const pipe_ends&) = delete;
  pipe_ends& operator=(const pipe_ends&) = delete;
  ~pipe_ends();
  int read_end() const noexcept { return read_; }
  int write_end() const noexcept { return write_; }
  int take_write_end() noexcept;
  void close_read() noexcept;
  void close_write() noexcept;

 private:
  int read_ = -1;
  int write_ = -1;
};

// Writes all of `text` to `fd` with write(2), in pieces of `piece` bytes;
// false if a write fails (EPIPE: the reader has gone).
bool write_pieces(int fd, std::string_view text, std::size_t piece);

// Sends `text` to the descriptor open_target() returns (skipped if it
// returns -1), in pieces of `piece` bytes, on a thread of its own, then
// closes it. SIGPIPE is blocked on that thread: a reader that gives up (a
// failing test) ends the sending with EPIPE instead of ending the tests.
class sender {
 public:
  sender(std::function<int()> open_target, std::string text, std::size_t piece);
  sender(const sender&) = delete;
  sender& operator=(const sender&) = delete;
  ~sender();  // join()s, if not done
  // Waits for the sending to end: call it once the reading side is closed.
  void join();

 private:
  std::thread thread_;
};

// A writer that talks with its reader: sends each of `messages` to `fd`
// (taking it) on a thread of its own, the next only after the reader says
// with received() that the one before arrived, and closes `fd` once the
// last is sent. A reader that waits for more than has arrived would wait for ever;
// so after 30 s without word the writer gives up, closes `fd` (ending the
// reader's wait) and says so in gave_up(): the test fails, it does not hang.
class paced_writer {
 public:
  paced_writer(int fd, std::vector<std::string> messages);
  paced_writer(const paced_writer&) = delete;
  paced_writer& operator=(const paced_writer&) = delete;
  ~paced_writer();  // joins
  void received();  // the last message arrived: send the next
  bool gave_up();   // joins, then: did a message go unacknowledged 30 s?

 private:
  std::mutex mutex_;
  std::condition_variable acknowledged_;
  std::size_t acknowledgements_ = 0;
  bool gave_up_ = false;
  std::thread thread_;
};

// Sets the umask for the lifetime of the object.
class scoped_umask {
 public:
  explicit scoped_umask(mode_t mask);
  ~scoped_umask();
  scoped_umask(const scoped_umask&) = delete;
  scoped_umask& operator=(const scoped_umask&) = delete;

 private:
  mode_t previous_;
};
#endif  // _WIN32

}  // namespace sluice_test
