// fake_sys: a fault-injecting sluice::detail::sys_table for tests.
//
// While a fake_sys lives, every operation sluice asks of the OS goes through
// it. Each entry forwards to the real backend unless the plan says
// otherwise, and every call is counted (from the moment the fake was
// installed). The plan:
//
//   fake.fail(call::sync_data, 1, EIO);     // the 1st sync_data fails with EIO
//   fake.fail_after(call::rename_held, 1, EIO);  // done, then reported failed
//   fake.short_transfer(call::write_at, 2, 10);  // the 2nd write_at really
//                                                // writes its first 10 bytes only
//   fake.interrupt_every_write_at();        // each write_at: EINTR, then the real call
//   fake.on_write_at(hook);                 // a function decides per call
//   fake.on_read_at(hook);                  // the same, told the handle and offset
//   fake.short_transfer(call::write_stream, 1, 3);  // streams (pipes) as write_at
//   fake.interrupt_every_write_stream();  fake.on_write_stream(hook);
//   fake.short_transfer(call::read_stream, 1, 3);   // read_stream: fail, short
//   fake.reads_at();                        // every read_at: offset, length, memory
//
// Asynchronous writes: by default async_open fails with ENOSYS, so that a
// write_behind writer uses its thread, as without liburing.
// emulate_async() makes the fake a queue of its own: each submitted write
// is performed as a write_at (the write_at plan and hook decide it: a
// failure or a short transfer becomes the completion's result) at
// submission or, deferred, when a completion is waited for, and its
// completion queued for async_complete, oldest or newest first. A
// submission the plan fails is dropped, or, with keep_failed, stays queued
// as in io_uring's ring and goes with the next one that succeeds (or with
// async_drain). async_drain performs every write still pending and drops
// every completion; async_close drops a failed submission still queued and
// performs the writes still pending (a real queue's go on after it).
// use_real_async() forwards the async calls to the real backend.
//
// A failing close really closes the handle first (Linux releases it even
// when close reports an error), so injected close failures leak nothing.
//
// Function pointers cannot capture, so the entries find the plan through a
// static pointer to the one active fake. The destructor restores the real
// table. One fake at a time. Calls from several threads (a writer's
// write-behind thread) go through one at a time, hooks included; read the
// counts and records once the other threads are done.
#pragma once

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
#include "support/test_support.hpp"

namespace sluice_test {

// The entries of sys_table.
enum class call {
  open,
  close,
  write_at,
  read_at,
  write_stream,
  read_stream,
  wait_ready,
  sync_data,
  sync_all,
  sync_directory,
  preallocate,
  resize,
  file_size_limit,
  facts,
  state,
  set_state,
  filesystem_of,
  direct_alignment,
  count_extents,
  writeback,
  drop_cache,
  advise_sequential,
  seek_region,
  set_no_copy_on_write,
  rename,
  remove,
  make_directory,
  list_directory,
  lock,
  can_link_unnamed,
  link_unnamed,
  async_open,
  async_close,
  async_register,
  async_submit,
  async_complete,
  async_drain,
  path_facts,
  read_link,
  on_procfs,
  mount_root,
  effective_user,
  set_owner,
  set_mode,
  list_attributes,
  get_attribute,
  set_attribute,
  remove_attribute,
  read_security,
  set_file_attributes,
  rename_held,
  remove_held
};
inline constexpr std::size_t call_kinds = static_cast<std::size_t>(call::remove_held) + 1;

// How the fake's emulated asynchronous queue completes writes.
struct async_options {
  bool deferred = false;      // writes are performed when waited for, not when submitted
  bool newest_first = false;  // completions come back newest first (reordered)
  bool keep_failed = false;   // a failed submission stays queued, sent with the next
};

// One writeback that reached the fake.
struct writeback_record {
  std::int64_t offset;
  std::int64_t length;
  bool wait;  // write back and wait, or only start
};

// One async_submit that reached the emulated queue.
struct async_submit_record {
  sluice::detail::handle fd;
  const void* data;
  unsigned size;
  std::int64_t offset;
  int buffer_index;       // -1: not a registered buffer
  bool in_registered;     // data[0, size) lies inside that registered buffer
  std::size_t in_flight;  // writes submitted and not yet reaped, this one included
};

// One write_at, write_stream or read_at that reached the fake.
struct write_record {
  sluice::detail::handle fd;
  std::int64_t offset;    // -1 for write_stream
  std::size_t requested;  // total bytes of the iovecs
  int iov_count;
  ssize_t result;                // what the fake returned
  int error;                     // errno when result < 0
  const void* memory = nullptr;  // the first sluice::detail::io_piece's address
};

// What a hook tells the fake to do with one write_at, write_stream or read_at: forward
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
  // The nth rename, rename_held, remove or remove_held reaches the OS, then
  // reports `error_value` whatever it did (a network filesystem's error
  // that comes after the server did the work).
  void fail_after(call which, int nth, int error_value);
  // The nth write_at, write_stream, read_at or read_stream transfers only
  // the first `bytes` of what it was asked (a real, shorter call).
  void short_transfer(call which, int nth, std::size_t bytes);
  // Every write_at (write_stream) returns EINTR once, then the retry reaches
  // the OS.
  void interrupt_every_write_at() { interrupt_[0] = true; }
  void interrupt_every_write_stream() { interrupt_[1] = true; }
  // Every open of an unnamed temporary fails with EOPNOTSUPP, as on a
  // filesystem without O_TMPFILE.
  void refuse_unnamed_temporary() { refuse_unnamed_temporary_ = true; }
  // `hook(path, how)` runs for each open the plan does not fail: an errno
  // to fail it with, or 0 to let it reach the OS. Up to the 256th call the
  // fake allocates nothing after the hook, so that a hook may make the
  // caller's next allocation fail.
  void on_open(
      std::function<int(const std::string& path, const sluice::detail::open_request& how)> hook) {
    open_hook_ = std::move(hook);
  }
  // direct_alignment reports this alignment (for memory and offsets alike)
  // whatever the filesystem says; 0 (the default) reports what it says.
  void report_direct_alignment(unsigned alignment) { direct_alignment_ = alignment; }
  // filesystem_of reports `which` whatever the file is on.
  void report_filesystem(sluice::detail::filesystem which) { filesystem_ = which; }
  // preallocate with space_mode::written_zeros is refused with EOPNOTSUPP,
  // as by a disk that cannot zero blocks without writing them, so that a
  // test sees the same journal on every machine; after zero_by_disk() it
  // succeeds as on a disk that can: the range is reserved and written with
  // zeros by real calls the fake does not count.
  void zero_by_disk() { zero_by_disk_ = true; }
  // The async calls go to an emulated queue, or to the real backend.
  void emulate_async(async_options options = {}) {
    async_mode_ = async_mode::emulated;
    async_options_ = options;
  }
  void use_real_async() { async_mode_ = async_mode::real; }
  // `hook(which)` runs before each call is counted and planned: it sees
  // what the earlier calls left (a test looks at a file between two calls).
  void before_each(std::function<void(call which)> hook) { before_each_ = std::move(hook); }
  // `hook(nth, requested)` decides each write_at the plan above does not.
  void on_write_at(std::function<transfer_action(int nth, std::size_t requested)> hook) {
    write_at_hook_ = std::move(hook);
  }
  // The same for each write_stream.
  void on_write_stream(std::function<transfer_action(int nth, std::size_t requested)> hook) {
    write_stream_hook_ = std::move(hook);
  }
  // `hook(fd, offset, requested)` decides each read_at the plan above does
  // not (the handle and offset tell which file and where).
  void on_read_at(std::function<transfer_action(sluice::detail::handle fd, std::int64_t offset,
                                                std::size_t requested)>
                      hook) {
    read_at_hook_ = std::move(hook);
  }

  // Calls that reached the fake (including failed and interrupted ones).
  int calls(call which) const { return calls_[static_cast<std::size_t>(which)]; }
  const std::vector<write_record>& writes_at() const noexcept { return writes_at_; }
  const std::vector<write_record>& stream_writes() const noexcept { return stream_writes_; }
  const std::vector<write_record>& reads_at() const noexcept { return reads_at_; }
  // Every call that reached the fake, in order.
  const std::vector<call>& log() const noexcept { return log_; }
  // What each open asked for.
  const std::vector<sluice::detail::open_request>& opens() const noexcept { return opens_; }
  // The path of each open, as given.
  const std::vector<std::string>& open_paths() const noexcept { return open_paths_; }
  // Every write submitted to the emulated queue, in order.
  const std::vector<async_submit_record>& async_submits() const noexcept { return async_submits_; }
  // Every writeback, in order.
  const std::vector<writeback_record>& writebacks() const noexcept { return writebacks_; }
  // The file each sync_all or sync_directory that reached the fake was
  // called on (found with a real facts of its handle), in order.
  const std::vector<file_identity>& synced() const noexcept { return synced_; }

 private:
  struct plan {
    int error = 0;                     // fail with this errno, or
    std::optional<std::size_t> bytes;  // transfer only this much
    bool after = false;                // fail once the real call is done
  };

  enum class async_mode { refused, emulated, real };
  struct async_request {
    sluice::detail::handle fd;
    const void* data;
    unsigned size;
    std::int64_t offset;
    int buffer_index;
    std::uint64_t tag;
  };
  struct async_completion {
    std::uint64_t tag;
    int result;
  };
  // The emulated queue's state (one queue at a time).
  struct async_state {
    std::vector<sluice::detail::io_piece> registered;
    std::deque<async_request> unsent;     // failed, kept queued (keep_failed)
    std::deque<async_request> submitted;  // deferred, not yet performed
    std::deque<async_completion> completed;
  };

  // Counts the call and returns the plan for it, if any.
  std::optional<plan> next(call which);
  ssize_t transfer(call which, sluice::detail::handle fd, const sluice::detail::io_piece* iov,
                   int count, std::int64_t offset);
  bool interrupted(call which);
  std::optional<plan> planned_transfer(call which, std::size_t requested);
  void perform(const async_request& request);
  void send(const async_request& request);
  void send_unsent();
  void perform_pending();
  bool in_registered(const void* data, unsigned size, int buffer_index) const;

  static fake_sys* active_;
  // The entry for `member` that only counts the call, plans it and
  // forwards it to the real backend.
  template <call which, auto member>
  struct forward;
  static sluice::detail::handle open_entry(sluice::detail::handle dir, const char* path,
                                           const sluice::detail::open_request& how);
  static int close_entry(sluice::detail::handle fd);
  template <call which>
  static ssize_t transfer_entry(sluice::detail::handle fd, const sluice::detail::io_piece* iov,
                                int count, std::int64_t offset);
  template <call which>
  static ssize_t stream_entry(sluice::detail::handle fd, const sluice::detail::io_piece* iov,
                              int count);
  template <call which>
  static int sync_entry(sluice::detail::handle fd);
  static int preallocate_entry(sluice::detail::handle fd, std::int64_t offset, std::int64_t length,
                               sluice::detail::space_mode how);
  static int direct_alignment_entry(sluice::detail::handle fd,
                                    sluice::detail::direct_io_facts* out);
  static int filesystem_of_entry(sluice::detail::handle fd, sluice::detail::filesystem* out);
  static int writeback_entry(sluice::detail::handle fd, std::int64_t offset, std::int64_t length,
                             bool wait);
  static std::uint32_t effective_user_entry();
  static int async_open_entry(unsigned entries, sluice::detail::async_queue** queue);
  static void async_close_entry(sluice::detail::async_queue* queue);
  static int async_register_entry(sluice::detail::async_queue* queue,
                                  const sluice::detail::io_piece* buffers, unsigned count);
  static int async_submit_entry(sluice::detail::async_queue* queue, sluice::detail::handle fd,
                                const void* data, unsigned size, std::int64_t offset,
                                int buffer_index, std::uint64_t tag);
  static int async_complete_entry(sluice::detail::async_queue* queue, std::uint64_t* tag,
                                  int* result);
  static int async_drain_entry(sluice::detail::async_queue* queue);

  sluice::detail::sys_table table_;
  std::mutex mutex_;  // held by every entry, for its whole call
  std::array<int, call_kinds> calls_{};
  std::map<std::pair<call, int>, plan> planned_;
  bool interrupt_[2] = {};         // write_at, write_stream: each call fails with EINTR once
  bool interrupted_last_[2] = {};  // the last such call did
  bool refuse_unnamed_temporary_ = false;
  unsigned direct_alignment_ = 0;
  std::optional<sluice::detail::filesystem> filesystem_;
  std::function<int(const std::string&, const sluice::detail::open_request&)> open_hook_;
  bool zero_by_disk_ = false;
  std::function<transfer_action(int, std::size_t)> write_at_hook_;
  std::function<transfer_action(int, std::size_t)> write_stream_hook_;
  std::function<transfer_action(sluice::detail::handle, std::int64_t, std::size_t)> read_at_hook_;
  std::function<void(call)> before_each_;
  std::vector<write_record> writes_at_;
  std::vector<write_record> stream_writes_;
  std::vector<write_record> reads_at_;
  std::vector<sluice::detail::open_request> opens_;
  std::vector<std::string> open_paths_;
  std::vector<call> log_;
  async_mode async_mode_ = async_mode::refused;
  async_options async_options_;
  std::optional<async_state> async_;  // while the emulated queue is open
  std::vector<async_submit_record> async_submits_;
  std::vector<writeback_record> writebacks_;
  std::vector<file_identity> synced_;
};

}  // namespace sluice_test
