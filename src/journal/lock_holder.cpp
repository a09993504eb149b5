// who_holds on Linux: the holder of the journal's lock, from /proc/locks.
#include "journal/lock_holder.hpp"

#include <sys/sysmacros.h>
#include <unistd.h>

#include <cstdio>
#include <optional>
#include <sstream>
#include <string>

#include "os/sys.hpp"

namespace sluice::detail {
namespace {

// A lock /proc/locks lists: its holder and whether it is exclusive.
struct lock_holder {
  long pid;
  bool exclusive;
};

// The whole of the /proc file `path`, read through the seam; empty if it
// cannot be read (no /proc: a chroot, say; the message then goes without a pid).
std::string read_proc_file(const char* path) {
  std::string text;
  try {
    file proc = file::open(path, {.mode = open_mode::read_only});
    char chunk[4096];
    for (std::size_t got;
         (got = proc.read_at(std::as_writable_bytes(std::span(chunk)), text.size())) > 0;)
      text.append(chunk, got);
    proc.close();
  } catch (const std::system_error&) {
    text.clear();
  }
  return text;
}

// The value of the line "<key>:\t<value>" of a /proc/self/fdinfo file, or -1.
long fdinfo_value(const std::string& fdinfo, const std::string& key) {
  std::istringstream lines(fdinfo);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string name;
    long value = -1;
    if (fields >> name >> value && name == key + ":") return value;
  }
  return -1;
}

// The device /proc/locks names the file `fd` by, "major:minor" in hex:
// its filesystem's, from the line of /proc/self/mountinfo ("45 27 0:39 /
// /mnt ...") of the mount /proc/self/fdinfo/<fd> names. On btrfs it is
// not the device number the file's status reports (its subvolume's), so
// `fallback`, the latter, serves only where /proc does not tell.
std::string lock_device(int fd, std::uint64_t fallback) {
  unsigned long major_number = major(fallback), minor_number = minor(fallback);
  long mount =
      fdinfo_value(read_proc_file(("/proc/self/fdinfo/" + std::to_string(fd)).c_str()), "mnt_id");
  std::istringstream lines(mount < 0 ? std::string() : read_proc_file("/proc/self/mountinfo"));
  for (std::string line; std::getline(lines, line);) {
    long id = 0, parent = 0;
    unsigned long found_major = 0, found_minor = 0;
    if (std::sscanf(line.c_str(), "%ld %ld %lu:%lu", &id, &parent, &found_major, &found_minor) ==
            4 &&
        id == mount) {
      major_number = found_major;
      minor_number = found_minor;
      break;
    }
  }
  char device[48];
  std::snprintf(device, sizeof device, "%02lx:%02lx", major_number, minor_number);
  return device;
}

// The holder of a flock lock on the file at `where` ("fd:01:1234": device
// and inode), from the lines of /proc/locks ("1: FLOCK  ADVISORY  WRITE
// 4242 fd:01:1234 0 EOF"), waiters ("1: -> FLOCK ...") left out. Nothing
// where no line matches.
std::optional<lock_holder> find_holder(const std::string& locks, const std::string& where_held) {
  std::istringstream lines(locks);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string number, type, advisory, access, where;
    long pid = 0;
    if (!(fields >> number >> type >> advisory >> access >> pid >> where)) continue;
    if (type == "FLOCK" && where == where_held) return lock_holder{pid, access == "WRITE"};
  }
  return std::nullopt;
}

}  // namespace

std::string who_holds(const file& lock) {
  file_facts facts;
  if (sys().facts(lock.native_handle(), &facts) != 0) return "it is open elsewhere";
  std::string where =
      lock_device(lock.native_handle(), facts.device) + ":" + std::to_string(facts.inode);
  std::optional<lock_holder> holder = find_holder(read_proc_file("/proc/locks"), where);
  if (!holder) return "it is open elsewhere (another process, or this one)";
  std::string text = holder->exclusive ? "it is open for writing" : "it is open read-only";
  text += " in process " + std::to_string(holder->pid);
  if (holder->pid == static_cast<long>(::getpid()))
    text += " (this process, or a child it forked that still has the descriptor)";
  return text;
}

}  // namespace sluice::detail
