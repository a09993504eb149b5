#include "journal/lock.hpp"

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

// The holder of a flock lock on the file `facts` describes, from the lines of
// /proc/locks ("1: FLOCK  ADVISORY  WRITE 4242 fd:01:1234 0 EOF"), waiters
// ("1: -> FLOCK ...") left out. Nothing where no line matches: on btrfs,
// say, whose inodes report another device number than the lock's.
std::optional<lock_holder> find_holder(const std::string& locks, const file_facts& facts) {
  char device[64];
  std::snprintf(device, sizeof device, "%02x:%02x:%llu", major(facts.device), minor(facts.device),
                static_cast<unsigned long long>(facts.inode));
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
  file_facts facts;
  if (sys().facts(lock.native_handle(), &facts) != 0) return "it is open elsewhere";
  std::optional<lock_holder> holder = find_holder(read_proc_locks(), facts);
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
    using access = open_request::access;
    lock = dir.open_regular(
        lock_file_name,
        {.mode = writer ? access::read_write : access::read, .create = writer, .permissions = 0666},
        "the journal's lock file");
  } catch (const std::system_error& e) {
    if (!writer && e.code().value() == ENOENT) return {};  // no writer has been here
    throw;
  }
  lock_kind kind = writer ? lock_kind::exclusive : lock_kind::shared;
  if (restart_interrupted([&] { return sys().lock(lock.native_handle(), kind); }) == 0) return lock;
  int error = errno;
  if (error != EWOULDBLOCK) throw_error(error, "lock journal", dir.path().native());
  throw std::system_error(error, std::generic_category(),
                          describe("open journal", dir.path().native()) + ": " + who_holds(lock) +
                              "; a journal is opened by one writer, or by readers only, at a time");
}

}  // namespace sluice::detail
