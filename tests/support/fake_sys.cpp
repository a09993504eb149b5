#include "support/fake_sys.hpp"

#include <algorithm>
#include <cerrno>
#include <stdexcept>

#include "support/test_support.hpp"

namespace sluice_test {
namespace {

using sluice::detail::sys_table;

const sys_table& real() { return sluice::detail::real_sys(); }

std::size_t total(const sluice::detail::io_piece* iov, int count) {
  std::size_t sum = 0;
  for (int i = 0; i < count; ++i) sum += iov[i].iov_len;
  return sum;
}

// The first `bytes` bytes that iov[0, count) describes.
std::vector<sluice::detail::io_piece> truncated(const sluice::detail::io_piece* iov, int count,
                                                std::size_t bytes) {
  std::vector<sluice::detail::io_piece> head;
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

// Returns no handle with errno set, like the real open.
sluice::detail::handle failed_open(int error_value) {
  errno = error_value;
  return sluice::detail::no_handle();
}

bool transfers_bytes(call which) {
  return which == call::write_at || which == call::read_at || which == call::write_stream ||
         which == call::read_stream;
}

}  // namespace

fake_sys* fake_sys::active_ = nullptr;

template <call which, class R, class... Args, R (*sluice::detail::sys_table::*member)(Args...)>
struct fake_sys::forward<which, member> {
  static R entry(Args... args) {
    std::lock_guard lock(active_->mutex_);
    auto planned = active_->next(which);
    if (planned && !planned->after) return static_cast<R>(failed(planned->error));
    R result = (real().*member)(args...);
    return planned ? static_cast<R>(failed(planned->error)) : result;
  }
};

fake_sys::fake_sys()
    : table_{
          .open = open_entry,
          .close = close_entry,
          .write_at = transfer_entry<call::write_at>,
          .read_at = transfer_entry<call::read_at>,
          .write_stream = stream_entry<call::write_stream>,
          .read_stream = stream_entry<call::read_stream>,
          .wait_ready = forward<call::wait_ready, &sys_table::wait_ready>::entry,
          .sync_data = forward<call::sync_data, &sys_table::sync_data>::entry,
          .sync_all = sync_entry<call::sync_all>,
          .sync_directory = sync_entry<call::sync_directory>,
          .preallocate = preallocate_entry,
          .resize = forward<call::resize, &sys_table::resize>::entry,
          .file_size_limit = forward<call::file_size_limit, &sys_table::file_size_limit>::entry,
          .facts = forward<call::facts, &sys_table::facts>::entry,
          .state = forward<call::state, &sys_table::state>::entry,
          .set_state = forward<call::set_state, &sys_table::set_state>::entry,
          .filesystem_of = filesystem_of_entry,
          .direct_alignment = direct_alignment_entry,
          .count_extents = forward<call::count_extents, &sys_table::count_extents>::entry,
          .writeback = writeback_entry,
          .drop_cache = forward<call::drop_cache, &sys_table::drop_cache>::entry,
          .advise_sequential =
              forward<call::advise_sequential, &sys_table::advise_sequential>::entry,
          .seek_region = forward<call::seek_region, &sys_table::seek_region>::entry,
          .set_no_copy_on_write =
              forward<call::set_no_copy_on_write, &sys_table::set_no_copy_on_write>::entry,
          .rename = forward<call::rename, &sys_table::rename>::entry,
          .remove = forward<call::remove, &sys_table::remove>::entry,
          .make_directory = forward<call::make_directory, &sys_table::make_directory>::entry,
          .list_directory = forward<call::list_directory, &sys_table::list_directory>::entry,
          .lock = forward<call::lock, &sys_table::lock>::entry,
          .can_link_unnamed = forward<call::can_link_unnamed, &sys_table::can_link_unnamed>::entry,
          .link_unnamed = forward<call::link_unnamed, &sys_table::link_unnamed>::entry,
          .async_open = async_open_entry,
          .async_close = async_close_entry,
          .async_register = async_register_entry,
          .async_submit = async_submit_entry,
          .async_complete = async_complete_entry,
          .async_drain = async_drain_entry,
          .path_facts = forward<call::path_facts, &sys_table::path_facts>::entry,
          .read_link = forward<call::read_link, &sys_table::read_link>::entry,
          .on_procfs = forward<call::on_procfs, &sys_table::on_procfs>::entry,
          .mount_root = forward<call::mount_root, &sys_table::mount_root>::entry,
          .effective_user = effective_user_entry,
          .set_owner = forward<call::set_owner, &sys_table::set_owner>::entry,
          .set_mode = forward<call::set_mode, &sys_table::set_mode>::entry,
          .list_attributes = forward<call::list_attributes, &sys_table::list_attributes>::entry,
          .get_attribute = forward<call::get_attribute, &sys_table::get_attribute>::entry,
          .set_attribute = forward<call::set_attribute, &sys_table::set_attribute>::entry,
          .remove_attribute = forward<call::remove_attribute, &sys_table::remove_attribute>::entry,
          .read_security = forward<call::read_security, &sys_table::read_security>::entry,
          .set_file_attributes =
              forward<call::set_file_attributes, &sys_table::set_file_attributes>::entry,
          .rename_held = forward<call::rename_held, &sys_table::rename_held>::entry,
          .remove_held = forward<call::remove_held, &sys_table::remove_held>::entry,
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

void fake_sys::fail_after(call which, int nth, int error_value) {
  if (which != call::rename && which != call::rename_held && which != call::remove &&
      which != call::remove_held)
    throw std::logic_error("fake_sys: fail_after is for rename, rename_held, remove, remove_held");
  planned_[{which, nth}] = plan{error_value, std::nullopt, true};
}

void fake_sys::short_transfer(call which, int nth, std::size_t bytes) {
  if (!transfers_bytes(which))
    throw std::logic_error(
        "fake_sys: only write_at, write_stream, read_at and read_stream transfer bytes");
  planned_[{which, nth}] = plan{0, bytes};
}

std::optional<fake_sys::plan> fake_sys::next(call which) {
  if (before_each_) before_each_(which);
  log_.push_back(which);
  int nth = ++calls_[static_cast<std::size_t>(which)];
  if (auto found = planned_.find({which, nth}); found != planned_.end()) return found->second;
  return std::nullopt;
}

// For write_at and write_stream with interruption asked: true (the call
// counted) every other time, the retry reaching the OS.
bool fake_sys::interrupted(call which) {
  if (which != call::write_at && which != call::write_stream) return false;
  std::size_t i = which == call::write_at ? 0 : 1;
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
  if (planned || (which != call::write_at && which != call::write_stream)) return planned;
  auto& hook = which == call::write_at ? write_at_hook_ : write_stream_hook_;
  if (!hook) return planned;
  transfer_action action = hook(calls(which), requested);
  if (action.what == transfer_action::fail) return plan{action.error, std::nullopt};
  if (action.what == transfer_action::partial) return plan{0, action.bytes};
  return std::nullopt;
}

ssize_t fake_sys::transfer(call which, sluice::detail::handle fd,
                           const sluice::detail::io_piece* iov, int count, std::int64_t offset) {
  auto real_call = [&](const sluice::detail::io_piece* v, int n) {
    if (which == call::write_stream) return real().write_stream(fd, v, n);
    if (which == call::read_stream) return real().read_stream(fd, v, n);
    return (which == call::write_at ? real().write_at : real().read_at)(fd, v, n, offset);
  };
  std::size_t requested = total(iov, count);
  auto record = [&](ssize_t result) {
    int saved = errno;  // the caller reads errno after we return
    write_record done{fd,
                      offset,
                      requested,
                      count,
                      result,
                      result < 0 ? saved : 0,
                      count > 0 ? iov[0].iov_base : nullptr};
    if (which == call::write_at) writes_at_.push_back(done);
    if (which == call::write_stream) stream_writes_.push_back(done);
    if (which == call::read_at) reads_at_.push_back(done);
    errno = saved;
    return result;
  };
  if (interrupted(which)) return record(failed(EINTR));
  std::optional<plan> planned = planned_transfer(which, requested);
  if (!planned && which == call::read_at && read_at_hook_) {
    transfer_action action = read_at_hook_(fd, offset, requested);
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

sluice::detail::handle fake_sys::open_entry(sluice::detail::handle dir, const char* path,
                                            const sluice::detail::open_request& how) {
  std::lock_guard lock(active_->mutex_);
  active_->opens_.push_back(how);
  active_->open_paths_.push_back(path);
  if (auto planned = active_->next(call::open)) return failed_open(planned->error);
  if (active_->refuse_unnamed_temporary_ && how.unnamed_temporary) return failed_open(EOPNOTSUPP);
  if (active_->open_hook_)
    if (int error = active_->open_hook_(path, how); error != 0) return failed_open(error);
  return real().open(dir, path, how);
}

int fake_sys::close_entry(sluice::detail::handle fd) {
  std::lock_guard lock(active_->mutex_);
  auto planned = active_->next(call::close);
  int result = real().close(fd);
  if (planned) return failed(planned->error);
  return result;
}

template <call which>
ssize_t fake_sys::transfer_entry(sluice::detail::handle fd, const sluice::detail::io_piece* iov,
                                 int count, std::int64_t offset) {
  std::lock_guard lock(active_->mutex_);
  return active_->transfer(which, fd, iov, count, offset);
}

template <call which>
ssize_t fake_sys::stream_entry(sluice::detail::handle fd, const sluice::detail::io_piece* iov,
                               int count) {
  std::lock_guard lock(active_->mutex_);
  return active_->transfer(which, fd, iov, count, -1);
}

template <call which>
int fake_sys::sync_entry(sluice::detail::handle fd) {
  std::lock_guard lock(active_->mutex_);
  sluice::detail::file_facts facts;
  if (real().facts(fd, &facts) == 0) active_->synced_.push_back({facts.device, facts.inode});
  if (auto planned = active_->next(which)) return failed(planned->error);
  return which == call::sync_all ? real().sync_all(fd) : real().sync_directory(fd);
}

int fake_sys::preallocate_entry(sluice::detail::handle fd, std::int64_t offset, std::int64_t length,
                                sluice::detail::space_mode how) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::preallocate)) return failed(planned->error);
  if (how != sluice::detail::space_mode::written_zeros)
    return real().preallocate(fd, offset, length, how);
  if (!active_->zero_by_disk_) return failed(EOPNOTSUPP);
  return zero_by_hand(fd, offset, length);
}

int fake_sys::writeback_entry(sluice::detail::handle fd, std::int64_t offset, std::int64_t length,
                              bool wait) {
  std::lock_guard lock(active_->mutex_);
  active_->writebacks_.push_back({offset, length, wait});
  if (auto planned = active_->next(call::writeback)) return failed(planned->error);
  return real().writeback(fd, offset, length, wait);
}

int fake_sys::direct_alignment_entry(sluice::detail::handle fd,
                                     sluice::detail::direct_io_facts* out) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::direct_alignment)) return failed(planned->error);
  int result = real().direct_alignment(fd, out);
  if (result == 0 && active_->direct_alignment_ != 0) {
    out->known = true;
    out->memory = out->offset = active_->direct_alignment_;
  }
  return result;
}

int fake_sys::filesystem_of_entry(sluice::detail::handle fd, sluice::detail::filesystem* out) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::filesystem_of)) return failed(planned->error);
  int result = real().filesystem_of(fd, out);
  if (result == 0 && active_->filesystem_) *out = *active_->filesystem_;
  return result;
}

// It cannot fail: counted only.
std::uint32_t fake_sys::effective_user_entry() {
  std::lock_guard lock(active_->mutex_);
  active_->next(call::effective_user);
  return real().effective_user();
}

int fake_sys::async_open_entry(unsigned entries, sluice::detail::async_queue** queue) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::async_open)) return failed(planned->error);
  switch (active_->async_mode_) {
    case async_mode::refused: return failed(ENOSYS);
    case async_mode::real: return real().async_open(entries, queue);
    case async_mode::emulated: break;
  }
  if (active_->async_) throw std::logic_error("fake_sys: one emulated queue at a time");
  active_->async_.emplace();
  *queue = reinterpret_cast<sluice::detail::async_queue*>(&*active_->async_);
  return 0;
}

void fake_sys::async_close_entry(sluice::detail::async_queue* queue) {
  std::lock_guard lock(active_->mutex_);
  active_->next(call::async_close);
  if (active_->async_mode_ == async_mode::real) return real().async_close(queue);
  active_->async_->unsent.clear();
  active_->perform_pending();
  active_->async_.reset();
}

int fake_sys::async_register_entry(sluice::detail::async_queue* queue,
                                   const sluice::detail::io_piece* buffers, unsigned count) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::async_register)) return failed(planned->error);
  if (active_->async_mode_ == async_mode::real) return real().async_register(queue, buffers, count);
  active_->async_->registered.assign(buffers, buffers + count);
  return 0;
}

bool fake_sys::in_registered(const void* data, unsigned size, int buffer_index) const {
  if (buffer_index < 0 || static_cast<std::size_t>(buffer_index) >= async_->registered.size())
    return false;
  const sluice::detail::io_piece& buffer =
      async_->registered[static_cast<std::size_t>(buffer_index)];
  auto* begin = static_cast<const char*>(buffer.iov_base);
  auto* first = static_cast<const char*>(data);
  return first >= begin && first + size <= begin + buffer.iov_len;
}

int fake_sys::async_submit_entry(sluice::detail::async_queue* queue, sluice::detail::handle fd,
                                 const void* data, unsigned size, std::int64_t offset,
                                 int buffer_index, std::uint64_t tag) {
  std::lock_guard lock(active_->mutex_);
  fake_sys& fake = *active_;
  async_request request{fd, data, size, offset, buffer_index, tag};
  if (auto planned = fake.next(call::async_submit)) {
    if (fake.async_mode_ == async_mode::emulated && fake.async_options_.keep_failed)
      fake.async_->unsent.push_back(request);
    return failed(planned->error);
  }
  if (fake.async_mode_ == async_mode::real)
    return real().async_submit(queue, fd, data, size, offset, buffer_index, tag);
  fake.send_unsent();
  fake.send(request);
  return 0;
}

// One write reaches the emulated queue: recorded, then performed now or,
// deferred, when waited for.
void fake_sys::send(const async_request& request) {
  async_state& state = *async_;
  std::size_t in_flight = state.submitted.size() + state.completed.size() + 1;
  async_submits_.push_back(
      {request.fd, request.data, request.size, request.offset, request.buffer_index,
       in_registered(request.data, request.size, request.buffer_index), in_flight});
  if (async_options_.deferred)
    state.submitted.push_back(request);
  else
    perform(request);
}

// The failed submissions kept queued go, in order (keep_failed).
void fake_sys::send_unsent() {
  for (auto& unsent = async_->unsent; !unsent.empty(); unsent.pop_front()) send(unsent.front());
}

// Performs the deferred writes not performed yet, oldest or newest first.
void fake_sys::perform_pending() {
  async_state& state = *async_;
  bool newest_first = async_options_.newest_first;
  while (!state.submitted.empty()) {
    perform(newest_first ? state.submitted.back() : state.submitted.front());
    newest_first ? state.submitted.pop_back() : state.submitted.pop_front();
  }
}

// Performs one emulated async write as a write_at and queues its completion.
void fake_sys::perform(const async_request& request) {
  sluice::detail::io_piece one{const_cast<void*>(request.data), request.size};
  ssize_t result = transfer(call::write_at, request.fd, &one, 1, request.offset);
  async_->completed.push_back({request.tag, result < 0 ? -errno : static_cast<int>(result)});
}

int fake_sys::async_complete_entry(sluice::detail::async_queue* queue, std::uint64_t* tag,
                                   int* result) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::async_complete)) return failed(planned->error);
  fake_sys& fake = *active_;
  if (fake.async_mode_ == async_mode::real) return real().async_complete(queue, tag, result);
  async_state& state = *fake.async_;
  fake.perform_pending();
  if (state.completed.empty()) return failed(EDEADLK);  // a real queue would wait forever
  // Deferred writes complete in the order they were performed.
  bool from_back = fake.async_options_.newest_first && !fake.async_options_.deferred;
  async_completion done = from_back ? state.completed.back() : state.completed.front();
  from_back ? state.completed.pop_back() : state.completed.pop_front();
  *tag = done.tag;
  *result = done.result;
  return 0;
}

// A failed submission still queued goes, then every pending write is
// performed and every completion dropped.
int fake_sys::async_drain_entry(sluice::detail::async_queue* queue) {
  std::lock_guard lock(active_->mutex_);
  if (auto planned = active_->next(call::async_drain)) return failed(planned->error);
  fake_sys& fake = *active_;
  if (fake.async_mode_ == async_mode::real) return real().async_drain(queue);
  fake.send_unsent();
  fake.perform_pending();
  fake.async_->completed.clear();
  return 0;
}

}  // namespace sluice_test
