// fake_sys: a fault-injecting sluice::detail::sys_table for tests.
//
// While a fake_sys lives, every system call sluice makes goes through it. Each
// entry forwards to the real call unless the plan says otherwise, and every
// call is counted (from the moment the fake was installed). The plan:
//
//   fake.fail(call::fdatasync, 1, EIO);    // the 1st fdatasync fails with EIO
//   fake.short_transfer(call::pwritev, 2, 10);  // the 2nd pwritev really
//                                               // writes its first 10 bytes only
//   fake.interrupt_every_pwritev();       // each pwritev: EINTR, then the real call
//   fake.on_pwritev(hook);                // a function decides per call
//   fake.on_preadv(hook);                 // the same, told the fd and offset
//   fake.short_transfer(call::writev, 1, 3);  // writev (pipes) as pwritev
//   fake.interrupt_every_writev();  fake.on_writev(hook);
//   fake.short_transfer(call::readv, 1, 3);   // readv (pipes): fail, short
//
// io_uring: by default ring_open fails with ENOSYS, so that a write_behind
// writer uses its thread, as without liburing. emulate_ring() makes the
// fake a ring of its own: each ring write is performed as a pwritev (the
// pwritev plan and hook decide it: a failure or a short transfer becomes
// the completion's result) at submission or, deferred, when the ring is
// waited on, and its completion queued for ring_wait, oldest or newest
// first. use_real_ring() forwards the ring calls to the real io_uring.
//
// A failing close really closes the descriptor first (Linux releases it even
// when close reports an error), so injected close failures leak nothing.
//
// Function pointers cannot capture, so the entries find the plan through a
// static pointer to the one active fake. The destructor restores the real
// table. One fake at a time. Calls from several threads (a writer's
// write-behind thread) go through one at a time, hooks included; read the
// counts and records once the other threads are done.
#pragma once

#include <sys/types.h>
#include <sys/uio.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "os/sys.hpp"

namespace sluice_test {

// The calls of sys_table; open, rename and unlink stand for openat,
// renameat and unlinkat.
enum class call {
  open,
  close,
  pwritev,
  preadv,
  writev,
  readv,
  poll,
  fdatasync,
  fsync,
  fallocate,
  ftruncate,
  fstat,
  getfl,
  fiemap,
  linkat,
  rename,
  unlink,
  stat,
  sync_file_range,
  fadvise,
  statx,
  mkdir,
  getdents64,
  lseek,
  setfl,
  flock,
  lstat,
  readlinkat,
  fstatfs,
  geteuid,
  fchown,
  fchmod,
  listxattr,
  getxattr,
  fsetxattr,
  fremovexattr,
  ring_open,
  ring_close,
  ring_register,
  ring_write,
  ring_wait
};
inline constexpr std::size_t call_kinds = static_cast<std::size_t>(call::ring_wait) + 1;

// How the fake's emulated io_uring completes writes.
struct ring_options {
  bool deferred = false;      // writes are performed when waited for, not when submitted
  bool newest_first = false;  // completions come back newest first (reordered)
};

// Which file a descriptor is open on.
struct file_identity {
  dev_t device;
  ino_t inode;
  bool operator==(const file_identity&) const = default;
};

// One sync_file_range that reached the fake.
struct range_record {
  off_t offset;
  off_t length;
  unsigned flags;
};

// One ring_write that reached the emulated ring.
struct ring_write_record {
  int fd;
  const void* data;
  unsigned size;
  off_t offset;
  int buffer_index;       // -1: not a registered buffer
  bool in_registered;     // data[0, size) lies inside that registered buffer
  std::size_t in_flight;  // writes submitted and not yet reaped, this one included
};

// One pwritev (or writev) that reached the fake.
struct pwritev_record {
  int fd;
  off_t offset;           // -1 for writev
  std::size_t requested;  // total bytes of the iovecs
  int iov_count;
  ssize_t result;  // what the fake returned
  int error;       // errno when result < 0
};

// What a hook tells the fake to do with one pwritev, writev or preadv: forward
// it, fail it, or transfer only `bytes` of it.
struct transfer_action {
  enum kind { forward, fail, partial } what = forward;
  int error = 0;          // for fail
  std::size_t bytes = 0;  // for partial
};

class fake_sys {
 public:
  fake_sys();
  fake_sys(const fake_sys&) = delete;
  fake_sys& operator=(const fake_sys&) = delete;
  ~fake_sys();

  // The nth call (1-based) to `which` fails with `error_value` instead of
  // reaching the OS.
  void fail(call which, int nth, int error_value);
  // The nth pwritev, writev, preadv or readv transfers only the first
  // `bytes` of what it was asked (a real, shorter call).
  void short_transfer(call which, int nth, std::size_t bytes);
  // Every pwritev (writev) returns EINTR once, then the retry reaches the OS.
  void interrupt_every_pwritev() { interrupt_[0] = true; }
  void interrupt_every_writev() { interrupt_[1] = true; }
  // Every open with O_TMPFILE fails with EOPNOTSUPP, as on a filesystem
  // without it.
  void refuse_o_tmpfile() { refuse_o_tmpfile_ = true; }
  // `hook(path, flags)` runs for each open the plan does not fail: an errno
  // to fail it with, or 0 to let it reach the OS. Up to the 256th call the
  // fake allocates nothing after the hook, so that a hook may make the
  // caller's next allocation fail.
  void on_open(std::function<int(const std::string& path, int flags)> hook) {
    open_hook_ = std::move(hook);
  }
  // statx reports this direct-I/O alignment (STATX_DIOALIGN, for memory and
  // offsets alike) whatever the filesystem says; 0 (the default) reports
  // what it says.
  void report_direct_alignment(unsigned alignment) { direct_alignment_ = alignment; }
  // fallocate with FALLOC_FL_WRITE_ZEROES (0x80) is refused with
  // EOPNOTSUPP, as by a disk that cannot zero blocks without writing them,
  // so that a test sees the same journal on every machine; after
  // zero_by_disk() it succeeds as on a disk that can: the range is reserved
  // and written with zeros by real calls the fake does not count.
  void zero_by_disk() { zero_by_disk_ = true; }
  // The ring calls go to an emulated io_uring, or to the real one.
  void emulate_ring(ring_options options = {}) {
    ring_mode_ = ring_mode::emulated;
    ring_options_ = options;
  }
  void use_real_ring() { ring_mode_ = ring_mode::real; }
  // `hook(which)` runs before each call is counted and planned: it sees
  // what the earlier calls left (a test looks at a file between two calls).
  void before_each(std::function<void(call which)> hook) { before_each_ = std::move(hook); }
  // `hook(nth, requested)` decides each pwritev the plan above does not.
  void on_pwritev(std::function<transfer_action(int nth, std::size_t requested)> hook) {
    pwritev_hook_ = std::move(hook);
  }
  // The same for each writev.
  void on_writev(std::function<transfer_action(int nth, std::size_t requested)> hook) {
    writev_hook_ = std::move(hook);
  }
  // `hook(fd, offset, requested)` decides each preadv the plan above does
  // not (the descriptor and offset tell which file and where).
  void on_preadv(std::function<transfer_action(int fd, off_t offset, std::size_t requested)> hook) {
    preadv_hook_ = std::move(hook);
  }

  // Calls that reached the fake (including failed and interrupted ones).
  int calls(call which) const { return calls_[static_cast<std::size_t>(which)]; }
  const std::vector<pwritev_record>& pwritevs() const noexcept { return pwritevs_; }
  const std::vector<pwritev_record>& writevs() const noexcept { return writevs_; }
  // Every call that reached the fake, in order.
  const std::vector<call>& log() const noexcept { return log_; }
  // The flags of each open.
  const std::vector<int>& open_flags() const noexcept { return open_flags_; }
  // The path of each open, as given.
  const std::vector<std::string>& open_paths() const noexcept { return open_paths_; }
  // The mode (permission bits for a file it creates) of each open.
  const std::vector<mode_t>& open_modes() const noexcept { return open_modes_; }
  // Every write submitted to the emulated ring, in order.
  const std::vector<ring_write_record>& ring_writes() const noexcept { return ring_writes_; }
  // Every sync_file_range, in order.
  const std::vector<range_record>& sync_file_ranges() const noexcept { return sync_file_ranges_; }
  // The file each fsync that reached the fake was called on (found with a
  // real fstat of its descriptor), in order.
  const std::vector<file_identity>& fsynced() const noexcept { return fsynced_; }

 private:
  struct plan {
    int error = 0;                     // fail with this errno, or
    std::optional<std::size_t> bytes;  // transfer only this much
  };

  enum class ring_mode { refused, emulated, real };
  struct ring_request {
    int fd;
    const void* data;
    unsigned size;
    off_t offset;
    std::uint64_t tag;
  };
  struct ring_completion {
    std::uint64_t tag;
    int result;
  };
  // The emulated ring's state (one ring at a time).
  struct ring_state {
    std::vector<iovec> registered;
    std::deque<ring_request> submitted;  // deferred, not yet performed
    std::deque<ring_completion> completed;
  };

  // Counts the call and returns the plan for it, if any.
  std::optional<plan> next(call which);
  ssize_t transfer(call which, int fd, const iovec* iov, int count, off_t offset);
  bool interrupted(call which);
  std::optional<plan> planned_transfer(call which, std::size_t requested);
  void perform(const ring_request& request);
  bool in_registered(const void* data, unsigned size, int buffer_index) const;

  static fake_sys* active_;
  static int open_entry(int dir, const char* path, int flags, mode_t mode);
  static int close_entry(int fd);
  static ssize_t pwritev_entry(int fd, const iovec* iov, int count, off_t offset);
  static ssize_t preadv_entry(int fd, const iovec* iov, int count, off_t offset);
  static ssize_t writev_entry(int fd, const iovec* iov, int count);
  static ssize_t readv_entry(int fd, const iovec* iov, int count);
  static int poll_entry(struct pollfd* fds, unsigned long count, int timeout);
  static int fdatasync_entry(int fd);
  static int fsync_entry(int fd);
  static int fallocate_entry(int fd, int mode, off_t offset, off_t length);
  static int ftruncate_entry(int fd, off_t length);
  static int fstat_entry(int fd, struct stat* out);
  static int getfl_entry(int fd);
  static int fiemap_entry(int fd, struct fiemap* map);
  static int linkat_entry(int from_dir, const char* from, int to_dir, const char* to, int flags);
  static int rename_entry(int from_dir, const char* from, int to_dir, const char* to);
  static int unlink_entry(int dir, const char* path, int flags);
  static int stat_entry(const char* path, struct stat* out);
  static int sync_file_range_entry(int fd, off_t offset, off_t length, unsigned flags);
  static int fadvise_entry(int fd, off_t offset, off_t length, int advice);
  static int statx_entry(int dir, const char* path, int flags, unsigned mask, struct statx* out);
  static int mkdir_entry(const char* path, mode_t mode);
  static ssize_t getdents64_entry(int fd, void* buffer, size_t size);
  static off_t lseek_entry(int fd, off_t offset, int whence);
  static int setfl_entry(int fd, int flags);
  static int flock_entry(int fd, int operation);
  static int lstat_entry(const char* path, struct stat* out);
  static ssize_t readlinkat_entry(int dir, const char* path, char* buffer, size_t size);
  static int fstatfs_entry(int fd, struct statfs* out);
  static uid_t geteuid_entry();
  static int fchown_entry(int fd, uid_t owner, gid_t group);
  static int fchmod_entry(int fd, mode_t mode);
  static ssize_t listxattr_entry(const char* path, char* names, size_t size);
  static ssize_t getxattr_entry(const char* path, const char* name, void* value, size_t size);
  static int fsetxattr_entry(int fd, const char* name, const void* value, size_t size, int flags);
  static int fremovexattr_entry(int fd, const char* name);
  static int ring_open_entry(unsigned entries, void** ring);
  static void ring_close_entry(void* ring);
  static int ring_register_entry(void* ring, const iovec* buffers, unsigned count);
  static int ring_write_entry(void* ring, int fd, const void* data, unsigned size, off_t offset,
                              int buffer_index, std::uint64_t tag);
  static int ring_wait_entry(void* ring, std::uint64_t* tag, int* result);

  sluice::detail::sys_table table_;
  std::mutex mutex_;  // held by every entry, for its whole call
  std::array<int, call_kinds> calls_{};
  std::map<std::pair<call, int>, plan> planned_;
  bool interrupt_[2] = {};         // pwritev, writev: each call fails with EINTR once
  bool interrupted_last_[2] = {};  // the last such call did
  bool refuse_o_tmpfile_ = false;
  unsigned direct_alignment_ = 0;
  std::function<int(const std::string&, int)> open_hook_;
  bool zero_by_disk_ = false;
  std::function<transfer_action(int, std::size_t)> pwritev_hook_;
  std::function<transfer_action(int, std::size_t)> writev_hook_;
  std::function<transfer_action(int, off_t, std::size_t)> preadv_hook_;
  std::function<void(call)> before_each_;
  std::vector<pwritev_record> pwritevs_;
  std::vector<pwritev_record> writevs_;
  std::vector<int> open_flags_;
  std::vector<std::string> open_paths_;
  std::vector<mode_t> open_modes_;
  std::vector<call> log_;
  ring_mode ring_mode_ = ring_mode::refused;
  ring_options ring_options_;
  std::optional<ring_state> ring_;  // while the emulated ring is open
  std::vector<ring_write_record> ring_writes_;
  std::vector<range_record> sync_file_ranges_;
  std::vector<file_identity> fsynced_;
};

}  // namespace sluice_test
