#include "support/recording_sys.hpp"

#include <cerrno>
#include <filesystem>
#include <stdexcept>

#include "support/test_support.hpp"

namespace sluice_test {
namespace {

const sluice::detail::sys_table& real() { return sluice::detail::real_sys(); }

int no_sync(sluice::detail::handle) { return 0; }

sluice::detail::sys_table make_syncless() {
  sluice::detail::sys_table table = real();
  table.sync_data = no_sync;
  table.sync_all = no_sync;
  table.sync_directory = no_sync;
  return table;
}

}  // namespace

recording_sys* recording_sys::active_ = nullptr;

const sluice::detail::sys_table& syncless_sys() {
  static const sluice::detail::sys_table table = make_syncless();
  return table;
}

recording_sys::recording_sys(bool zero_by_disk) : zero_by_disk_(zero_by_disk), table_(real()) {
  if (active_) throw std::logic_error("recording_sys: one at a time");
  table_.open = open_entry;
  table_.close = close_entry;
  table_.write_at = write_at_entry;
  table_.sync_data = sync_data_entry;
  table_.sync_all = sync_all_entry;
  table_.sync_directory = sync_directory_entry;
  table_.preallocate = preallocate_entry;
  table_.resize = resize_entry;
  table_.rename = rename_entry;
  table_.remove = remove_entry;
  active_ = this;
  sluice::detail::set_sys(&table_);
}

recording_sys::~recording_sys() {
  sluice::detail::set_sys(nullptr);
  active_ = nullptr;
}

void recording_sys::ack(std::uint64_t lsn) { add({recorded_op::ack, {}, {}, 0, {}, lsn}); }

void recording_sys::truncate(std::uint64_t lsn) {
  add({recorded_op::truncate, {}, {}, 0, {}, lsn});
}

std::vector<recorded_op> recording_sys::ops() const {
  std::lock_guard lock(mutex_);
  return ops_;
}

void recording_sys::add(recorded_op op) {
  std::lock_guard lock(mutex_);
  ops_.push_back(std::move(op));
}

std::uint64_t recording_sys::count() const {
  std::lock_guard lock(mutex_);
  return ops_.size();
}

std::string recording_sys::name_of(sluice::detail::handle fd) {
  std::lock_guard lock(mutex_);
  auto found = names_.find(fd);
  return found != names_.end() ? found->second : std::string();
}

sluice::detail::handle recording_sys::open_entry(sluice::detail::handle dir, const char* path,
                                                 const sluice::detail::open_request& how) {
  auto fd = real().open(dir, path, how);
  if (fd == sluice::detail::no_handle()) return fd;
  std::lock_guard lock(active_->mutex_);
  active_->names_[fd] =
      how.directory ? std::string() : std::filesystem::path(path).filename().string();
  return fd;
}

int recording_sys::close_entry(sluice::detail::handle fd) {
  {
    std::lock_guard lock(active_->mutex_);
    active_->names_.erase(fd);
  }
  return real().close(fd);
}

ssize_t recording_sys::write_at_entry(sluice::detail::handle fd,
                                      const sluice::detail::io_piece* iov, int count,
                                      std::int64_t offset) {
  ssize_t done = real().write_at(fd, iov, count, offset);
  if (done <= 0) return done;
  std::string data;
  for (int i = 0; i < count && data.size() < static_cast<std::size_t>(done); ++i)
    data.append(static_cast<const char*>(iov[i].iov_base),
                std::min(iov[i].iov_len, static_cast<std::size_t>(done) - data.size()));
  active_->add({recorded_op::write,
                active_->name_of(fd),
                {},
                static_cast<std::uint64_t>(offset),
                std::move(data),
                0});
  return done;
}

// A sync is recorded once it returns, but covers only the ops recorded
// before it began: writes made meanwhile (by another thread) may miss it.
void recording_sys::add_sync(recorded_op::kind what, sluice::detail::handle fd,
                             std::uint64_t before) {
  add({what, what == recorded_op::dir_sync ? std::string() : name_of(fd), {}, before, {}, 0});
}

int recording_sys::sync_data_entry(sluice::detail::handle fd) {
  std::uint64_t before = active_->count();
  int result = real().sync_data(fd);
  if (result == 0) active_->add_sync(recorded_op::sync, fd, before);
  return result;
}

int recording_sys::sync_all_entry(sluice::detail::handle fd) {
  std::uint64_t before = active_->count();
  int result = real().sync_all(fd);
  bool directory = active_->name_of(fd).empty();  // opened as one
  if (result == 0)
    active_->add_sync(directory ? recorded_op::dir_sync : recorded_op::sync, fd, before);
  return result;
}

int recording_sys::sync_directory_entry(sluice::detail::handle fd) {
  std::uint64_t before = active_->count();
  int result = real().sync_directory(fd);
  if (result == 0) active_->add_sync(recorded_op::dir_sync, fd, before);
  return result;
}

int recording_sys::preallocate_entry(sluice::detail::handle fd, std::int64_t offset,
                                     std::int64_t length, sluice::detail::space_mode how) {
  using sluice::detail::space_mode;
  if (how == space_mode::written_zeros && !active_->zero_by_disk_) {
    errno = EOPNOTSUPP;
    return -1;
  }
  int result = how == space_mode::written_zeros ? zero_by_hand(fd, offset, length)
                                                : real().preallocate(fd, offset, length, how);
  if (result == 0 && how != space_mode::keep_size)
    active_->add({recorded_op::grow,
                  active_->name_of(fd),
                  {},
                  static_cast<std::uint64_t>(offset + length),
                  {},
                  0});
  return result;
}

int recording_sys::resize_entry(sluice::detail::handle fd, std::int64_t length) {
  int result = real().resize(fd, length);
  if (result == 0)
    active_->add(
        {recorded_op::resize, active_->name_of(fd), {}, static_cast<std::uint64_t>(length), {}, 0});
  return result;
}

int recording_sys::rename_entry(sluice::detail::handle from_dir, const char* from,
                                sluice::detail::handle to_dir, const char* to) {
  int result = real().rename(from_dir, from, to_dir, to);
  if (result != 0) return result;
  std::string source = std::filesystem::path(from).filename().string();
  std::string target = std::filesystem::path(to).filename().string();
  {
    std::lock_guard lock(active_->mutex_);  // open descriptors follow the file
    for (auto& [fd, name] : active_->names_)
      if (name == source) name = target;
  }
  active_->add({recorded_op::rename, source, target, 0, {}, 0});
  return result;
}

// Descriptors still open on the file keep its name: a sync through one
// after the unlink names a file that is gone, which the replay ignores.
int recording_sys::remove_entry(sluice::detail::handle dir, const char* name) {
  int result = real().remove(dir, name);
  if (result != 0) return result;
  active_->add(
      {recorded_op::unlink, std::filesystem::path(name).filename().string(), {}, 0, {}, 0});
  return result;
}

}  // namespace sluice_test
