#include "journal/lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>

#include "journal/format.hpp"
#include "os/error_messages.hpp"
#include "os/sys.hpp"
#include "os/transfer.hpp"

namespace sluice::detail {
namespace {

// A lock /proc/locks lists: its holder and whether it is exclusive.
struct lock_holder {
  long pid;
  bool exclusive;
};

// The whole of /proc/locks, read through the seam; empty if it cannot be read.
std::string read_proc_locks() {
  std::string text;
  try {
    file locks = file::open("/proc/locks", {.mode = open_mode::read_only});
    char chunk[4096];
    for (std::size_t got;
         (got = locks.read_at(std::as_writable_bytes(std::span(chunk)), text.size())) > 0;)
      text.append(chunk, got);
    locks.close();
  } catch (const std::system_error&) {
    text.clear();  // no /proc (a chroot, say): the message goes without a pid
  }
  return text;
}

// The holder of a flock lock on the inode `st` describes, from the lines of
// /proc/locks ("1: FLOCK  ADVISORY  WRITE 4242 fd:01:1234 0 EOF"), waiters
// ("1: -> FLOCK ...") left out. Nothing where no line matches: on btrfs,
// say, whose inodes report another device number than the lock's.
std::optional<lock_holder> find_holder(const std::string& locks, const struct stat& st) {
  char device[64];
  std::snprintf(device, sizeof device, "%02x:%02x:%llu", major(st.st_dev), minor(st.st_dev),
                static_cast<unsigned long long>(st.st_ino));
  std::istringstream lines(locks);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string number, type, advisory, access, where;
    long pid = 0;
    if (!(fields >> number >> type >> advisory >> access >> pid >> where)) continue;
    if (type == "FLOCK" && where == device) return lock_holder{pid, access == "WRITE"};
  }
  return std::nullopt;
}

// "it is open for writing in process 4242", or as much of it as is known.
std::string who_holds(const file& lock) {
  struct stat st {};
  if (sys().fstat(lock.native_handle(), &st) != 0) return "it is open elsewhere";
  std::optional<lock_holder> holder = find_holder(read_proc_locks(), st);
  if (!holder) return "it is open elsewhere (another process, or this one)";
  std::string text = holder->exclusive ? "it is open for writing" : "it is open read-only";
  text += " in process " + std::to_string(holder->pid);
  if (holder->pid == static_cast<long>(::getpid()))
    text += " (this process, or a child it forked that still has the descriptor)";
  return text;
}

}  // namespace

file lock_journal(const journal_directory& dir, journal_access access) {
  bool writer = access == journal_access::write;
  file lock;
  try {
    lock = dir.open_regular(lock_file_name, writer ? O_RDWR | O_CREAT : O_RDONLY,
                            "the journal's lock file", 0666);
  } catch (const std::system_error& e) {
    if (!writer && e.code().value() == ENOENT) return {};  // no writer has been here
    throw;
  }
  int operation = (writer ? LOCK_EX : LOCK_SH) | LOCK_NB;
  if (restart_interrupted([&] { return sys().flock(lock.native_handle(), operation); }) == 0)
    return lock;
  int error = errno;
  if (error != EWOULDBLOCK) throw_error(error, "lock journal", dir.path().native());
  throw std::system_error(error, std::generic_category(),
                          describe("open journal", dir.path().native()) + ": " + who_holds(lock) +
                              "; a journal is opened by one writer, or by readers only, at a time");
}

}  // namespace sluice::detail
