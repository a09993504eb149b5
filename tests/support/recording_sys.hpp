// recording_sys: a sluice::detail::sys_table that forwards every call to the
// real backend and records what a crash could lose: each write (with its
// bytes), each sync (of data, of a file, of a directory), each size change,
// rename and removal, by file name. The crash
// simulation replays the record to build the states a power loss could
// leave behind. One at a time; thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "os/sys.hpp"

namespace sluice_test {

struct recorded_op {
  enum kind { write, sync, dir_sync, grow, resize, rename, unlink, ack, truncate } what;
  std::string name;    // file name (no directory); the source of a rename
  std::string target;  // the destination of a rename
  // Write offset; the new size for grow and resize; for sync and dir_sync,
  // the number of ops recorded before the call began (those it covers).
  std::uint64_t offset;
  std::string data;  // the bytes of a write
  // For ack: every record up to here was committed; for truncate: the
  // argument of a truncate_before() about to be called.
  std::uint64_t lsn;
};

class recording_sys {
 public:
  // preallocate with space_mode::written_zeros is refused with EOPNOTSUPP,
  // so that a workload takes the same path on every disk; with `zero_by_disk`
  // it succeeds as on a disk that can (zero_by_hand()), recorded as the
  // size change it is: its range reads as zeros in every crash state.
  explicit recording_sys(bool zero_by_disk = false);
  recording_sys(const recording_sys&) = delete;
  recording_sys& operator=(const recording_sys&) = delete;
  ~recording_sys();

  // Notes that commit(lsn) returned.
  void ack(std::uint64_t lsn);
  // Notes that truncate_before(lsn) is about to be called.
  void truncate(std::uint64_t lsn);
  std::vector<recorded_op> ops() const;

 private:
  void add(recorded_op op);
  std::uint64_t count() const;
  std::string name_of(sluice::detail::handle fd);

  static recording_sys* active_;
  static sluice::detail::handle open_entry(sluice::detail::handle dir, const char* path,
                                           const sluice::detail::open_request& how);
  static int close_entry(sluice::detail::handle fd);
  static ssize_t write_at_entry(sluice::detail::handle fd, const sluice::detail::io_piece* iov,
                                int count, std::int64_t offset);
  static int sync_data_entry(sluice::detail::handle fd);
  static int sync_all_entry(sluice::detail::handle fd);
  static int sync_directory_entry(sluice::detail::handle fd);
  static int preallocate_entry(sluice::detail::handle fd, std::int64_t offset, std::int64_t length,
                               sluice::detail::space_mode how);
  static int resize_entry(sluice::detail::handle fd, std::int64_t length);
  static int rename_entry(sluice::detail::handle from_dir, const char* from,
                          sluice::detail::handle to_dir, const char* to);
  static int remove_entry(sluice::detail::handle dir, const char* name);
  // Records a sync of `fd` that covers the ops recorded before `before`.
  void add_sync(recorded_op::kind what, sluice::detail::handle fd, std::uint64_t before);

  bool zero_by_disk_;
  sluice::detail::sys_table table_;
  mutable std::mutex mutex_;
  std::map<sluice::detail::handle, std::string> names_;  // by handle; empty for directories
  std::vector<recorded_op> ops_;
};

// A table that forwards everything to the real backend but makes the syncs
// no-ops: for recovering throw-away crash states quickly.
const sluice::detail::sys_table& syncless_sys();

}  // namespace sluice_test
