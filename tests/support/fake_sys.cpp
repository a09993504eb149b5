#include "support/fake_sys.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <stdexcept>

#include "support/test_support.hpp"

namespace sluice_test {
namespace {

const sluice::detail::sys_table& real() { return sluice::detail::real_sys(); }

std::size_t total(const iovec* iov, int count) {
  std::size_t sum = 0;
  for (int i = 0; i < count; ++i) sum += iov[i].iov_len;
  return sum;
}

// The first `bytes` bytes that iov[0, count) describes.
std::vector<iovec> truncated(const iovec* iov, int count, std::size_t bytes) {
  std::vector<iovec> head;
  for (int i = 0; i < count && bytes > 0; ++i) {
    std::size_t n = std::min(bytes, iov[i].iov_len);
    head.push_back({iov[i].iov_base, n});
    bytes -= n;
  }
  return head;
}

// Returns -1 with errno set, like the real call.
int failed(int error_value) {
  errno = error_value;
  return -1;
}

}  // namespace

fake_sys* fake_sys::active_ = nullptr;

fake_sys::fake_sys()
    : table_{
          .openat = open_entry,
          .close = close_entry,
          .pwritev = pwritev_entry,
          .preadv = preadv_entry,
          .writev = writev_entry,
          .readv = readv_entry,
          .poll = poll_entry,
          .fdatasync = fdatasync_entry,
          .fsync = fsync_entry,
          .fallocate = fallocate_entry,
          .ftruncate = ftruncate_entry,
          .fstat = fstat_entry,
          .getfl = getfl_entry,
          .fiemap = fiemap_entry,
          .linkat = linkat_entry,
          .renameat = rename_entry,
          .unlinkat = unlink_entry,
          .stat = stat_entry,
          .sync_file_range = sync_file_range_entry,
          .fadvise = fadvise_entry,
          .statx = statx_entry,
          .mkdir = mkdir_entry,
          .getdents64 = getdents64_entry,
          .lseek = lseek_entry,
          .setfl = setfl_entry,
          .flock = flock_entry,
          .lstat = lstat_entry,
          .readlinkat = readlinkat_entry,
          .fstatfs = fstatfs_entry,
          .geteuid = geteuid_entry,
          .fchown = fchown_entry,
          .fchmod = fchmod_entry,
          .listxattr = listxattr_entry,
          .getxattr = getxattr_entry,
          .fsetxattr = fsetxattr_entry,
          .fremovexattr = fremovexattr_entry,
          .ring_open = ring_open_entry,
          .ring_close = ring_close_entry,
          .ring_register = ring_register_entry,
          .ring_write = ring_write_entry,
          .ring_wait = ring_wait_entry,
      } {
  if (active_) throw std::logic_error("fake_sys: one at a time");
  log_.reserve(256);  // the first calls log without allocating: see on_open()
  active_ = this;
  sluice::detail::set_sys(&table_);
}

fake_sys::~fake_sys() {
  sluice::detail::set_sys(nullptr);
  active_ = nullptr;
}

void fake_sys::fail(call which, int nth, int error_value) {
  planned_[{which, nth}] = plan{error_value, std::nullopt};
}

void fake_sys::short_transfer(call which, int nth, std::size_t bytes) {
  if (which != call::pwritev && which != call::preadv && which != call::writev &&
      which != call::readv)
    throw std::logic_error("fake_sys: only pwritev, writev, preadv and readv transfer bytes");
  planned_[{which, nth}] = plan{0, bytes};
}

std::optional<fake_sys::plan> fake_sys::next(call which) {
  if (before_each_) before_each_(which);
  log_.push_back(which);
  int nth = ++calls_[static_cast<std::size_t>(which)];
  if (auto found = planned_.find({which, nth}); found != planned_.end()) return found->second;
  return std::nullopt;
}

// For pwritev and writev with interruption asked: true (the call counted)
// every other time, the retry reaching the OS.
bool fake_sys::interrupted(call which) {
  if (which != call::pwritev && which != call::writev) return false;
  std::size_t i = which == call::pwritev ? 0 : 1;
  if (!interrupt_[i]) return false;
  interrupted_last_[i] = !interrupted_last_[i];
  if (!interrupted_last_[i]) return false;
  log_.push_back(which);
  ++calls_[static_cast<std::size_t>(which)];
  return true;
}

// Counts the transfer; what the plan or, failing that, the hook says.
std::optional<fake_sys::plan> fake_sys::planned_transfer(call which, std::size_t requested) {
  std::optional<plan> planned = next(which);
  if (planned || (which != call::pwritev && which != call::writev)) return planned;
  auto& hook = which == call::pwritev ? pwritev_hook_ : writev_hook_;
  if (!hook) return planned;
  transfer_action action = hook(calls(which), requested);
  if (action.what == transfer_action::fail) return plan{action.error, std::nullopt};
  if (action.what == transfer_action::partial) return plan{0, action.bytes};
  return std::nullopt;
}

ssize_t fake_sys::transfer(call which, int fd, const iovec* iov, int count, off_t offset) {
  auto real_call = [&](const iovec* v, int n) {
    if (which == call::writev) return real().writev(fd, v, n);
    if (which == call::readv) return real().readv(fd, v, n);
    return (which == call::pwritev ? real().pwritev : real().preadv)(fd, v, n, offset);
  };
  std::size_t requested = total(iov, count);
  auto record = [&](ssize_t result) {
    int saved = errno;  // the caller reads errno after we return
    pwritev_record done{fd, offset, requested, count, result, result < 0 ? saved : 0};
    if (which == call::pwritev) pwritevs_.push_back(done);
    if (which == call::writev) writevs_.push_back(done);
    errno = saved;
    return result;
  };
  if (interrupted(which)) return record(failed(EINTR));
  std::optional<plan> planned = planned_transfer(which, requested);
  if (!planned && which == call::preadv && preadv_hook_) {
    transfer_action action = preadv_hook_(fd, offset, requested);
    if (action.what == transfer_action::fail) planned = plan{action.error, std::nullopt};
    if (action.what == transfer_action::partial) planned = plan{0, action.bytes};
  }
  if (planned && planned->error != 0) return record(failed(planned->error));
  if (planned && planned->bytes) {
    auto head = truncated(iov, count, std::min(*planned->bytes, requested));
    return record(real_call(head.data(), static_cast<int>(head.size())));
  }
  return record(real_call(iov, count));
}

int fake_sys::open_entry(int dir, const char* path, int flags, mode_t mode) {
  std::lock_guard lock(active_->mutex_);
  active_->open_flags_.push_back(flags);
  active_->open_paths_.push_back(path);
  active_->open_modes_.push_back(mode);
  if (auto planned = active_->next(call::open)) return failed(planned->error);
  if (active_->refuse_o_tmpfile_ && (flags & O_TMPFILE) == O_TMPFILE) return failed(EOPNOTSUPP);
  if (active_->open_hook_)
    if (int error = active_->open_hook_(path, flags); error != 0) return failed(error);
  return real().openat(dir, path, flags, mode);
}

int fake_sys::close_entry(int fd) {
  std::lock_guard lock(active_->mutex_);
  auto planned = active_->next(call::close);
  int result = real().close(fd);
  if (planned) return failed(planned->error);
  return result;
}

ssize_t fake_sys::pwritev_entry(int fd, const iovec* iov, int count, off_t offset) {
  std::lock_guard lock(active_->mutex_);
  return active_->transfer(call::pwritev, fd, iov, count, offset);
}

ssize_t fake_sys::preadv_entry(int fd, const iovec* iov, int count, off_t offset) {
  std::lock_guard lock(active_->mutex_);
  return active_->transfer(call::preadv, fd, iov, count, offset);
}

ssize_t fake_sys::writev_entry(int fd, const iovec* iov, int count) {
  std::lock_guard lock(active_->mutex_);
  return active_->transfer(call::writev, fd, iov, count, -1);
}

ssize_t fake_sys::readv_entry(int fd, const iovec* iov, int count) {
  std::lock_guard lock(active_->mutex_);
  return active_->transfer(call::readv, fd, iov, count, -1);
}

int fake_sys::poll_entry(struct pollfd* fds, unsigned long count, int timeout) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::poll)) return failed(planned->error);
  return real().poll(fds, count, timeout);
}

int fake_sys::fdatasync_entry(int fd) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::fdatasync)) return failed(planned->error);
  return real().fdatasync(fd);
}

int fake_sys::fsync_entry(int fd) {
  std::lock_guard lock(active_->mutex_);
  struct stat st {};
  if (real().fstat(fd, &st) == 0) active_->fsynced_.push_back({st.st_dev, st.st_ino});
  if (auto planned = active_->next(call::fsync)) return failed(planned->error);
  return real().fsync(fd);
}

int fake_sys::fallocate_entry(int fd, int mode, off_t offset, off_t length) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::fallocate)) return failed(planned->error);
  if (!(mode & write_zeroes_mode)) return real().fallocate(fd, mode, offset, length);
  if (!active_->zero_by_disk_) return failed(EOPNOTSUPP);
  return zero_by_hand(fd, mode & ~write_zeroes_mode, offset, length);
}

int fake_sys::ftruncate_entry(int fd, off_t length) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::ftruncate)) return failed(planned->error);
  return real().ftruncate(fd, length);
}

int fake_sys::fstat_entry(int fd, struct stat* out) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::fstat)) return failed(planned->error);
  return real().fstat(fd, out);
}

int fake_sys::getfl_entry(int fd) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::getfl)) return failed(planned->error);
  return real().getfl(fd);
}

int fake_sys::fiemap_entry(int fd, struct fiemap* map) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::fiemap)) return failed(planned->error);
  return real().fiemap(fd, map);
}

int fake_sys::linkat_entry(int from_dir, const char* from, int to_dir, const char* to, int flags) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::linkat)) return failed(planned->error);
  return real().linkat(from_dir, from, to_dir, to, flags);
}

int fake_sys::rename_entry(int from_dir, const char* from, int to_dir, const char* to) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::rename)) return failed(planned->error);
  return real().renameat(from_dir, from, to_dir, to);
}

int fake_sys::sync_file_range_entry(int fd, off_t offset, off_t length, unsigned flags) {
  std::lock_guard lock(active_->mutex_);
  active_->sync_file_ranges_.push_back({offset, length, flags});
  if (auto planned = active_->next(call::sync_file_range)) return failed(planned->error);
  return real().sync_file_range(fd, offset, length, flags);
}

int fake_sys::fadvise_entry(int fd, off_t offset, off_t length, int advice) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::fadvise)) return failed(planned->error);
  return real().fadvise(fd, offset, length, advice);
}

int fake_sys::statx_entry(int dir, const char* path, int flags, unsigned mask, struct statx* out) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::statx)) return failed(planned->error);
  int result = real().statx(dir, path, flags, mask, out);
  if (result == 0 && (mask & STATX_DIOALIGN) && active_->direct_alignment_ != 0) {
    out->stx_mask |= STATX_DIOALIGN;
    out->stx_dio_mem_align = out->stx_dio_offset_align = active_->direct_alignment_;
  }
  return result;
}

int fake_sys::mkdir_entry(const char* path, mode_t mode) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::mkdir)) return failed(planned->error);
  return real().mkdir(path, mode);
}

ssize_t fake_sys::getdents64_entry(int fd, void* buffer, size_t size) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::getdents64)) return failed(planned->error);
  return real().getdents64(fd, buffer, size);
}

off_t fake_sys::lseek_entry(int fd, off_t offset, int whence) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::lseek)) return failed(planned->error);
  return real().lseek(fd, offset, whence);
}

int fake_sys::setfl_entry(int fd, int flags) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::setfl)) return failed(planned->error);
  return real().setfl(fd, flags);
}

int fake_sys::flock_entry(int fd, int operation) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::flock)) return failed(planned->error);
  return real().flock(fd, operation);
}

int fake_sys::lstat_entry(const char* path, struct stat* out) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::lstat)) return failed(planned->error);
  return real().lstat(path, out);
}

ssize_t fake_sys::readlinkat_entry(int dir, const char* path, char* buffer, size_t size) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::readlinkat)) return failed(planned->error);
  return real().readlinkat(dir, path, buffer, size);
}

int fake_sys::fstatfs_entry(int fd, struct statfs* out) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::fstatfs)) return failed(planned->error);
  return real().fstatfs(fd, out);
}

// It cannot fail: counted only.
uid_t fake_sys::geteuid_entry() {
  std::lock_guard lock(active_->mutex_);
  active_->next(call::geteuid);
  return real().geteuid();
}

int fake_sys::fchown_entry(int fd, uid_t owner, gid_t group) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::fchown)) return failed(planned->error);
  return real().fchown(fd, owner, group);
}

int fake_sys::fchmod_entry(int fd, mode_t mode) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::fchmod)) return failed(planned->error);
  return real().fchmod(fd, mode);
}

ssize_t fake_sys::listxattr_entry(const char* path, char* names, size_t size) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::listxattr)) return failed(planned->error);
  return real().listxattr(path, names, size);
}

ssize_t fake_sys::getxattr_entry(const char* path, const char* name, void* value, size_t size) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::getxattr)) return failed(planned->error);
  return real().getxattr(path, name, value, size);
}

int fake_sys::fsetxattr_entry(int fd, const char* name, const void* value, size_t size, int flags) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::fsetxattr)) return failed(planned->error);
  return real().fsetxattr(fd, name, value, size, flags);
}

int fake_sys::fremovexattr_entry(int fd, const char* name) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::fremovexattr)) return failed(planned->error);
  return real().fremovexattr(fd, name);
}

int fake_sys::stat_entry(const char* path, struct stat* out) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::stat)) return failed(planned->error);
  return real().stat(path, out);
}

int fake_sys::unlink_entry(int dir, const char* path, int flags) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::unlink)) return failed(planned->error);
  return real().unlinkat(dir, path, flags);
}

int fake_sys::ring_open_entry(unsigned entries, void** ring) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::ring_open)) return failed(planned->error);
  switch (active_->ring_mode_) {
    case ring_mode::refused: return failed(ENOSYS);
    case ring_mode::real: return real().ring_open(entries, ring);
    case ring_mode::emulated: break;
  }
  if (active_->ring_) throw std::logic_error("fake_sys: one emulated ring at a time");
  active_->ring_.emplace();
  *ring = &*active_->ring_;
  return 0;
}

void fake_sys::ring_close_entry(void* ring) {
  std::lock_guard lock(active_->mutex_);
  active_->next(call::ring_close);
  if (active_->ring_mode_ == ring_mode::real) return real().ring_close(ring);
  active_->ring_.reset();
}

int fake_sys::ring_register_entry(void* ring, const iovec* buffers, unsigned count) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::ring_register)) return failed(planned->error);
  if (active_->ring_mode_ == ring_mode::real) return real().ring_register(ring, buffers, count);
  active_->ring_->registered.assign(buffers, buffers + count);
  return 0;
}

bool fake_sys::in_registered(const void* data, unsigned size, int buffer_index) const {
  if (buffer_index < 0 || static_cast<std::size_t>(buffer_index) >= ring_->registered.size())
    return false;
  const iovec& buffer = ring_->registered[static_cast<std::size_t>(buffer_index)];
  auto* begin = static_cast<const char*>(buffer.iov_base);
  auto* first = static_cast<const char*>(data);
  return first >= begin && first + size <= begin + buffer.iov_len;
}

int fake_sys::ring_write_entry(void* ring, int fd, const void* data, unsigned size, off_t offset,
                               int buffer_index, std::uint64_t tag) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::ring_write)) return failed(planned->error);
  fake_sys& fake = *active_;
  if (fake.ring_mode_ == ring_mode::real)
    return real().ring_write(ring, fd, data, size, offset, buffer_index, tag);
  ring_state& state = *fake.ring_;
  std::size_t in_flight = state.submitted.size() + state.completed.size() + 1;
  fake.ring_writes_.push_back({fd, data, size, offset, buffer_index,
                               fake.in_registered(data, size, buffer_index), in_flight});
  ring_request request{fd, data, size, offset, tag};
  if (fake.ring_options_.deferred)
    state.submitted.push_back(request);
  else
    fake.perform(request);
  return 0;
}

// Performs one emulated ring write as a pwritev and queues its completion.
void fake_sys::perform(const ring_request& request) {
  iovec one{const_cast<void*>(request.data), request.size};
  ssize_t result = transfer(call::pwritev, request.fd, &one, 1, request.offset);
  ring_->completed.push_back({request.tag, result < 0 ? -errno : static_cast<int>(result)});
}

int fake_sys::ring_wait_entry(void* ring, std::uint64_t* tag, int* result) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::ring_wait)) return failed(planned->error);
  fake_sys& fake = *active_;
  if (fake.ring_mode_ == ring_mode::real) return real().ring_wait(ring, tag, result);
  ring_state& state = *fake.ring_;
  bool newest_first = fake.ring_options_.newest_first;
  while (!state.submitted.empty()) {
    fake.perform(newest_first ? state.submitted.back() : state.submitted.front());
    newest_first ? state.submitted.pop_back() : state.submitted.pop_front();
  }
  if (state.completed.empty()) return failed(EDEADLK);  // a real ring would wait forever
  // Deferred writes complete in the order they were performed.
  bool from_back = newest_first && !fake.ring_options_.deferred;
  ring_completion done = from_back ? state.completed.back() : state.completed.front();
  from_back ? state.completed.pop_back() : state.completed.pop_front();
  *tag = done.tag;
  *result = done.result;
  return 0;
}

}  // namespace sluice_test
