// The write-behind engine on io_uring: several buffers are written at once,
// each by one io_uring write (write_fixed from buffers registered once, when
// the kernel lets them be pinned), and completions are reaped on the
// caller's thread when it hands off a buffer and every one is taken, or
// waits for them all. No thread.
//
// Only for regular files not in append mode: writes in flight may land in
// any order, which is harmless where each has its own offset, and only for
// writers whose options ask nothing after each write (no write_through
// sync, no no_cache writeback): start_write_behind checks those.
//
// A completion that is short is continued at the right offset, an EINTR or
// EAGAIN one is submitted again, a write of nothing is continued once, then
// fails with EIO (as file::write_at does). Any other result fails the write:
// nothing more is submitted, everything in flight is waited for, and the
// first byte missing from the file is the failure's offset. Writes after it
// may have landed: the file is then cut back (ftruncate) to that byte, or to
// the size it had when the engine started if that is larger, so that it
// again holds exactly what the writer will not write again.
//
// A failed submission fails its write the same way, and the ring may keep
// it queued (see sys.hpp): nothing is submitted after it, so it never
// reaches the file; a write in flight that needs continuing then fails
// where it got to. If waiting for completions fails, or brings one for no
// write of ours, the writes in flight count as failed and the ring is
// drained (sys().async_drain) before the file is cut back, so that none
// lands after the cut; if draining fails too, the error says so. Settling a
// failure allocates only its message: without memory for it, the error is
// one made when the engine started (ENOMEM, no offset), and the writer
// still takes back every byte from the first one missing.
//
// For caching_mode::direct on ext4 and XFS (foreground_flush::size_step)
// the file is grown ahead of the writes (size_ahead.hpp) and cut back when
// they are waited for; a cut that fails is the engine's failure, at the end
// of the data, and the error says the file ends with zeros past it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "os/sys.hpp"
#include "writer/size_ahead.hpp"
#include "writer/write_behind.hpp"

namespace sluice::detail {

class uring_write_behind final : public write_behind {
 public:
  // The engine for writes to b's file, `depth` at a time, through `inner`,
  // from buffers of b's capacity: opens a ring, allocates depth + 1 buffers
  // and registers them (if the kernel refuses, e.g. past RLIMIT_MEMLOCK, it
  // writes from them unregistered). Costs an fstat, an fcntl, io_uring_setup
  // and a registration. Null, silently, with `inner` left alone, if the
  // file is not a regular file, is in append mode (O_APPEND), or the ring
  // cannot be opened (no liburing at build time, a kernel or seccomp that
  // refuses io_uring). Throws std::bad_alloc. `emptying`: the caller
  // empties the file next, so its old size is taken as 0.
  static std::unique_ptr<flush_strategy> open(std::unique_ptr<foreground_flush>& inner,
                                              buffered_file& b, std::size_t depth, bool emptying);
  // Waits for the writes in flight (their failure is not reported: a
  // failure is taken back first), then closes the ring.
  ~uring_write_behind() override;

 private:
  enum class state { queued, in_flight, done, failed };
  struct job : handed_off {
    std::uint64_t tag;          // its completions carry it
    int slot;                   // registered buffer, or -1
    std::uint64_t written = 0;  // bytes in the file so far
    state now = state::queued;
    bool stalled = false;  // its last completion wrote nothing
    int error = 0;         // when failed
  };

  uring_write_behind(std::unique_ptr<foreground_flush> inner, async_queue* ring, detail::handle fd,
                     std::string path, std::size_t depth, std::size_t capacity, std::uint64_t size);
  owned_buffer queue(std::unique_ptr<char[], free_deleter>& full, std::size_t capacity,
                     std::size_t size, std::uint64_t offset) override;
  bool wait() override;
  void collect_failure(failed_writes& into) const override;
  void stop() noexcept override;
  void reserved(std::uint64_t end) noexcept override;
  write_behind_engine kind() const noexcept override { return write_behind_engine::io_uring; }

  void register_buffers();
  int slot_of(const char* data, std::size_t capacity) const;
  void submit(job& j);
  void reap_one();
  void complete(job& j, int result);
  void fail(job& j, int error);
  void lose_track(int error);
  void retire();
  void settle() noexcept;
  bool give_back() noexcept;
  int cut_back() const noexcept;
  std::exception_ptr error_of(const job& first, int cut_error) const noexcept;

  async_queue* ring_;  // null once stopped
  const detail::handle fd_;
  const std::string path_;
  const std::size_t capacity_;        // the writer's when the engine started
  const std::uint64_t old_size_;      // the file's, then
  std::vector<io_piece> registered_;  // empty if registration failed
  std::vector<owned_buffer> free_;
  std::optional<size_ahead> ahead_;  // direct I/O: the size kept ahead of the writes
  std::deque<job> jobs_;             // handed off, in file order; the front one is not done
  std::uint64_t next_tag_ = 0;
  std::uint64_t written_end_ = 0;  // the end of the furthest write done
  std::size_t in_flight_ = 0;
  bool failing_ = false;         // a write failed: no new write is submitted
  int refused_ = 0;              // a submission failed (its errno): nothing more is submitted
  std::uint64_t may_reach_ = 0;  // where writes whose completions were lost may have written to
  bool lost_ = false;            // waiting failed and so did draining: what was in flight may still
                                 // land, and its buffers can never be freed
  const std::exception_ptr undescribed_;  // the error when its message cannot be allocated
  std::exception_ptr error_;              // once settled
  std::uint64_t failed_at_ = 0;
};

}  // namespace sluice::detail
