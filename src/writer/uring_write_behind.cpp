#include "writer/uring_write_behind.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "os/error_messages.hpp"
#include "os/sys.hpp"
#include "os/transfer.hpp"

namespace sluice::detail {
namespace {

// One submission writes at most this much; a larger buffer is continued.
constexpr std::size_t largest_write = std::size_t(1) << 30;

// Keeps a buffer the kernel may still write from (waiting for its write
// failed) for the life of the process: never freed, never reused, and
// still reachable, so that a leak checker does not report it.
void abandon(owned_buffer buffer) noexcept {
  static std::mutex guard;
  static auto* kept = new std::vector<owned_buffer>;  // never destroyed
  std::lock_guard lock(guard);
  try {
    kept->push_back(std::move(buffer));
  } catch (...) {
    (void)buffer.data.release();  // no memory to remember it: lost all the same
  }
}

}  // namespace

std::unique_ptr<flush_strategy> uring_write_behind::open(std::unique_ptr<foreground_flush>& inner,
                                                         buffered_file& b, std::size_t depth,
                                                         bool emptying) {
  // In append mode the kernel puts each write at the end, whatever its
  // offset: writes in flight together could land in any order.
  detail::handle fd = b.target_.native_handle();
  file_facts facts;
  if (sys().facts(fd, &facts) != 0 || facts.type != file_type::regular) return nullptr;
  handle_state state;
  if (sys().state(fd, &state) != 0 || state.append) return nullptr;
  async_queue* ring = nullptr;
  if (sys().async_open(static_cast<unsigned>(depth), &ring) != 0) return nullptr;
  try {
    return std::unique_ptr<flush_strategy>(
        new uring_write_behind(std::move(inner), ring, fd, b.target_.path(), depth, b.capacity_,
                               emptying ? 0 : facts.size));
  } catch (...) {
    sys().async_close(ring);
    throw;
  }
}

uring_write_behind::uring_write_behind(std::unique_ptr<foreground_flush> inner, async_queue* ring,
                                       detail::handle fd, std::string path, std::size_t depth,
                                       std::size_t capacity, std::uint64_t size)
    : write_behind(std::move(inner), depth, capacity),
      ring_(ring),
      fd_(fd),
      path_(std::move(path)),
      capacity_(capacity),
      old_size_(size),
      undescribed_(std::make_exception_ptr(std::system_error(
          ENOMEM, std::generic_category(),
          describe("write", path_) +
              ": a write failed, and no memory was left to say where or why (the writer "
              "holds every byte from the first one not written)"))) {
  free_.reserve(depth + 2);  // and the writer's first buffer: retire() never allocates
  for (std::size_t i = 0; i < depth + 1; ++i) free_.push_back(inner_->allocate(capacity));
  register_buffers();
  if (std::uint64_t step = inner_->size_step(capacity)) ahead_.emplace(fd, size, step);
}

// Every buffer is one the kernel may pin; if it will not, they stay plain.
void uring_write_behind::register_buffers() {
  for (const owned_buffer& buffer : free_)
    registered_.push_back({buffer.data.get(), buffer.capacity});
  if (sys().async_register(ring_, registered_.data(), static_cast<unsigned>(registered_.size())) !=
      0)
    registered_.clear();
}

uring_write_behind::~uring_write_behind() { stop(); }

void uring_write_behind::stop() noexcept {
  if (!ring_) return;
  while (in_flight_ > 0 && !lost_) reap_one();
  // The kernel may still write from these: better kept than reused.
  if (lost_)
    for (job& j : jobs_)
      if (j.now == state::failed) abandon(std::move(j.buffer));
  sys().async_close(ring_);
  ring_ = nullptr;
  jobs_.clear();
  free_.clear();
}

// The registered buffer `data` is, or -1. A buffer of another capacity is
// never one: the writer's buffer only grows, so memory at a registered
// address but of a new capacity is a new allocation the kernel has not
// pinned.
int uring_write_behind::slot_of(const char* data, std::size_t capacity) const {
  if (capacity != capacity_) return -1;
  for (std::size_t i = 0; i < registered_.size(); ++i)
    if (registered_[i].iov_base == data) return static_cast<int>(i);
  return -1;
}

owned_buffer uring_write_behind::queue(std::unique_ptr<char[], free_deleter>& full,
                                       std::size_t capacity, std::size_t size,
                                       std::uint64_t offset) {
  // Wait for the oldest write while `depth` are under way.
  while (jobs_.size() >= depth_ && !failing_ && in_flight_ > 0) {
    reap_one();
    retire();
  }
  owned_buffer next;
  if (!failing_) {
    next = take_free(free_, capacity);
    if (!next.data) next = inner_->allocate(capacity);
  }
  int slot = slot_of(full.get(), capacity);
  job& queued = jobs_.emplace_back();  // may throw: `full` is not taken yet
  static_cast<handed_off&>(queued) = {{std::move(full), capacity}, size, offset};
  queued.tag = next_tag_++;
  queued.slot = slot;
  if (failing_) {
    settle();
    return {};
  }
  submit(queued);
  return next;
}

bool uring_write_behind::wait() {
  while (in_flight_ > 0) reap_one();
  retire();
  if (!failing_) return give_back();
  settle();
  return false;
}

void uring_write_behind::reserved(std::uint64_t end) noexcept {
  if (ahead_) ahead_->keep_reserved(end);
}

// Every write done: the file's growth past them is cut back. A cut that
// fails is a failure with no byte missing (every one handed off was
// written): the file ends with zeros past its data, which flush(), sync()
// and close() must not leave unsaid.
bool uring_write_behind::give_back() noexcept {
  std::uint64_t end = std::max(written_end_, old_size_);
  int error = ahead_ ? ahead_->give_back(end) : 0;
  if (error == 0) return true;
  failing_ = true;
  failed_at_ = end;
  try {
    error_ = std::make_exception_ptr(std::system_error(
        error, std::generic_category(),
        describe("resize", path_) + ": cutting the file back to its " + std::to_string(end) +
            " bytes of data, past which it was grown ahead of the writes (it ends with zeros "
            "there)"));
  } catch (...) {
    error_ = undescribed_;
  }
  return false;
}

void uring_write_behind::collect_failure(failed_writes& into) const {
  into.error = error_;
  into.offset = failed_at_;
  into.unwritten.clear();
  for (const job& queued : jobs_) add_unwritten(into, queued);
}

// Submits what `j` still has to write. Once a submission has failed, the
// ring may still hold it and would send it with the next one: `j` then
// fails where it got to, with that submission's error.
void uring_write_behind::submit(job& j) {
  if (refused_ != 0) return fail(j, refused_);
  if (ahead_) ahead_->cover(j.offset + j.size);
  std::size_t left = std::min(j.size - static_cast<std::size_t>(j.written), largest_write);
  if (sys().async_submit(ring_, fd_, j.buffer.data.get() + j.written, static_cast<unsigned>(left),
                         static_cast<std::int64_t>(j.offset + j.written), j.slot, j.tag) != 0) {
    refused_ = errno;
    return fail(j, refused_);
  }
  j.now = state::in_flight;
  ++in_flight_;
}

// Waits for one completion and acts on it.
void uring_write_behind::reap_one() {
  std::uint64_t tag = 0;
  int result = 0;
  if (restart_interrupted([&] { return sys().async_complete(ring_, &tag, &result); }) != 0)
    return lose_track(errno);
  if (jobs_.empty() || tag < jobs_.front().tag || tag - jobs_.front().tag >= jobs_.size())
    return lose_track(EIO);  // a completion for no write of ours
  job& j = jobs_[static_cast<std::size_t>(tag - jobs_.front().tag)];
  --in_flight_;
  complete(j, result);
}

// `j`'s write completed with `result`: bytes written, or -errno.
void uring_write_behind::complete(job& j, int result) {
  j.now = state::done;
  if (result == -EINTR || result == -EAGAIN) return submit(j);
  if (result < 0) return fail(j, -result);
  if (result == 0) {
    if (j.stalled) return fail(j, EIO);  // the kernel will not take the bytes
    j.stalled = true;
    return submit(j);
  }
  j.stalled = false;
  j.written += static_cast<std::uint64_t>(result);
  if (j.written < j.size) return submit(j);
  written_end_ = std::max(written_end_, j.offset + j.size);
}

void uring_write_behind::fail(job& j, int error) {
  j.now = state::failed;
  j.error = error;
  failing_ = true;
}

// Waiting for completions failed, or brought one for no write of ours: no
// write in flight can be known to be over, so each counts as failed from
// the byte it had reached, and as having maybe written up to its end (as
// has a failed submission, which draining sends). The ring is drained, so
// that none lands after cut_back(); if that fails too, they may, and their
// buffers are never freed.
void uring_write_behind::lose_track(int error) {
  for (job& j : jobs_) {
    if (j.now == state::done) continue;
    if (j.now == state::in_flight) fail(j, error);
    may_reach_ = std::max(may_reach_, j.offset + j.size);
  }
  in_flight_ = 0;
  lost_ = sys().async_drain(ring_) != 0;
}

// Recycles the buffers of the written jobs at the front. A buffer the
// writer had before the engine started is dropped when the registered ones
// serve its size.
void uring_write_behind::retire() {
  while (!jobs_.empty() && jobs_.front().now == state::done) {
    job& j = jobs_.front();
    if (j.slot >= 0 || registered_.empty() || j.buffer.capacity != capacity_)
      free_.push_back(std::move(j.buffer));
    jobs_.pop_front();
  }
}

// After a failure, once nothing is in flight: the front job is the first
// that failed (those before it were written and retired). The failure's
// offset is recorded and the file cut back before anything is allocated.
void uring_write_behind::settle() noexcept {
  while (in_flight_ > 0) reap_one();
  retire();
  if (error_) return;
  const job& first = jobs_.front();
  failed_at_ = first.offset + first.written;
  error_ = error_of(first, cut_back());
}

// Writes after the first failure may have landed past it: the file is cut
// back to the failure (or to its size before the engine, if larger).
// Returns 0 if it holds nothing past that, else the errno of the cut.
int uring_write_behind::cut_back() const noexcept {
  std::uint64_t keep = std::max(failed_at_, old_size_);
  std::uint64_t end = may_reach_;
  for (const job& j : jobs_) end = std::max(end, j.offset + j.written);
  if (ahead_) end = std::max(end, ahead_->grown());
  if (end <= keep) return 0;
  if (restart_interrupted([&] { return sys().resize(fd_, static_cast<std::int64_t>(keep)); }) == 0)
    return 0;
  return errno;
}

// The write_error of the failure of `first`, saying what the file may hold
// past it (`cut_error`: cut_back's). With no memory for its message, the
// error made when the engine started.
std::exception_ptr uring_write_behind::error_of(const job& first, int cut_error) const noexcept {
  try {
    std::string note;
    if (cut_error != 0)
      note = " (and cutting the file back to " + std::to_string(std::max(failed_at_, old_size_)) +
             " bytes failed: " + std::strerror(cut_error) +
             "; bytes written, or zeros grown ahead of the writes, after that offset may "
             "remain)";
    if (lost_)
      note +=
          " (and the writes in flight could not be waited for: bytes after that offset may "
          "still land)";
    return std::make_exception_ptr(
        write_failed(first.error, path_, first.offset, first.written, note));
  } catch (...) {
    return undescribed_;
  }
}

}  // namespace sluice::detail
