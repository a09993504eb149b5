// sluice::file: every operation on one descriptor, through detail::sys.
#include "sluice/file.hpp"

#include <fcntl.h>
#include <linux/fiemap.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "os/close_failure.hpp"
#include "os/directory.hpp"
#include "os/error_messages.hpp"
#include "os/sticky_error.hpp"
#include "os/sys.hpp"
#include "os/transfer.hpp"

namespace sluice {
namespace {

int open_flags(open_mode mode) {
  switch (mode) {
    case open_mode::truncate: return O_WRONLY | O_CREAT | O_TRUNC;
    case open_mode::truncate_existing: return O_WRONLY | O_TRUNC;
    case open_mode::create_new: return O_RDWR | O_CREAT | O_EXCL;
    case open_mode::append: return O_WRONLY | O_CREAT | O_APPEND;
    case open_mode::open_existing: return O_RDWR;
    case open_mode::read_only: return O_RDONLY;
  }
  return O_RDONLY;
}

iovec to_iovec(std::span<const std::byte> bytes) {
  return {const_cast<std::byte*>(bytes.data()), bytes.size()};
}

}  // namespace

file file::open(const std::filesystem::path& path, file_options options) {
  int fd = detail::restart_interrupted([&] {
    return detail::sys().openat(
        AT_FDCWD, path.c_str(),
        open_flags(options.mode) | O_CLOEXEC | (options.direct ? O_DIRECT : 0),
        options.permissions);
  });
  if (fd < 0) detail::throw_open_failure(errno, path.native(), options.direct);
  file opened(fd, path.native());
  if (options.mode == open_mode::append) opened.position_ = opened.size();
  return opened;
}

file::file(int fd, std::string path) noexcept : fd_(fd), path_(std::move(path)) {}

file file::borrow(int fd, std::string path) noexcept {
  file borrowed(fd, std::move(path));
  borrowed.owned_ = false;
  borrowed.sequential_ = true;
  return borrowed;
}

file::file(file&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      owned_(other.owned_),
      sequential_(other.sequential_),
      kind_(other.kind_),
      position_(other.position_),
      failure_(std::move(other.failure_)),
      path_(std::move(other.path_)) {}

file& file::operator=(file&& other) noexcept {
  if (this != &other) {
    file discarded(std::move(*this));
    fd_ = std::exchange(other.fd_, -1);
    position_ = other.position_;
    failure_ = std::move(other.failure_);
    owned_ = other.owned_;
    sequential_ = other.sequential_;
    kind_ = other.kind_;
    path_ = std::move(other.path_);
  }
  return *this;
}

file::~file() {
  if (fd_ < 0 || !owned_) return;
  if (detail::sys().close(fd_) != 0) {
    detail::report_close_from_destructor(path_, errno);
  }
}

void file::check_usable(const char* operation) const {
  if (fd_ < 0) detail::throw_error(EBADF, operation, path_);
  if (failure_) detail::refuse(failure_, operation, path_);
}

void file::poison(int errno_value, const char* operation) {
  try {
    detail::throw_error(errno_value, operation, path_);
  } catch (...) {
    detail::stick(failure_, std::current_exception());
    throw;
  }
}

// After a transfer: a descriptor that refused pwritev or preadv with
// ESPIPE (`sequential`) is a stream, written and read with writev/readv.
void file::learn_sequential(bool sequential) noexcept {
  if (!sequential || sequential_) return;
  sequential_ = true;
  kind_ = kind::stream;
}

// Writes the iovecs at `offset` (or sequentially) or throws write_error;
// returns the byte count.
std::uint64_t file::write_all(iovec* iov, std::size_t count, std::uint64_t offset) {
  auto result = detail::transfer(fd_, detail::direction::write, iov, count, offset, sequential_);
  learn_sequential(result.sequential);
  if (result.error != 0) throw detail::write_failed(result.error, path_, offset, result.done);
  return result.done;
}

void file::write_at(std::span<const std::byte> bytes, std::uint64_t offset) {
  check_usable("write");
  iovec one = to_iovec(bytes);
  write_all(&one, 1, offset);
}

void file::write(std::span<const std::byte> bytes) { write_gather({&bytes, 1}); }

void file::write_gather(std::span<const std::span<const std::byte>> buffers) {
  check_usable("write");
  constexpr std::size_t on_stack = 8;  // what the writer needs: no allocation
  iovec small[on_stack];
  std::vector<iovec> large;
  iovec* iov = small;
  if (buffers.size() > on_stack) {
    large.resize(buffers.size());
    iov = large.data();
  }
  for (std::size_t i = 0; i < buffers.size(); ++i) iov[i] = to_iovec(buffers[i]);
  try {
    position_ += write_all(iov, buffers.size(), position_);
  } catch (const write_error& e) {
    position_ = e.offset();
    throw;
  }
}

std::size_t file::read_at(std::span<std::byte> bytes, std::uint64_t offset) {
  check_usable("read");
  iovec one{bytes.data(), bytes.size()};
  auto result = detail::transfer(fd_, detail::direction::read, &one, 1, offset, sequential_);
  learn_sequential(result.sequential);
  if (result.error != 0) detail::throw_error(result.error, "read", path_, offset + result.done);
  return result.done;
}

std::uint64_t file::size() const {
  check_usable("stat");
  struct stat st {};
  if (detail::sys().fstat(fd_, &st) != 0) detail::throw_error(errno, "stat", path_);
  return static_cast<std::uint64_t>(st.st_size);
}

bool file::is_stream() const {
  if (kind_ == kind::unknown) {
    check_usable("stat");
    struct stat st {};
    if (detail::sys().fstat(fd_, &st) != 0) detail::throw_error(errno, "stat", path_);
    bool stream = S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISCHR(st.st_mode);
    kind_ = stream ? kind::stream : kind::seekable;
    if (stream) sequential_ = true;
  }
  return kind_ == kind::stream;
}

void file::resize(std::uint64_t new_size) {
  check_usable("resize");
  if (detail::restart_interrupted(
          [&] { return detail::sys().ftruncate(fd_, static_cast<off_t>(new_size)); }) != 0)
    detail::throw_error(errno, "resize", path_, new_size);
}

void file::preallocate(std::uint64_t offset, std::uint64_t length, preallocate_mode mode) {
  check_usable("preallocate");
  int flags = mode == preallocate_mode::keep_size ? FALLOC_FL_KEEP_SIZE : 0;
  if (detail::restart_interrupted([&] {
        return detail::sys().fallocate(fd_, flags, static_cast<off_t>(offset),
                                       static_cast<off_t>(length));
      }) == 0)
    return;
  int error = errno;
  if (error == EOPNOTSUPP)
    throw std::system_error(
        error, std::generic_category(),
        detail::describe("preallocate", path_) + ": fallocate is not supported by this filesystem");
  detail::throw_error(error, "preallocate", path_, offset);
}

std::uint64_t file::extent_count() const {
  check_usable("count extents of");
  struct fiemap query {};
  query.fm_start = 0;
  query.fm_length = FIEMAP_MAX_OFFSET;
  query.fm_flags = FIEMAP_FLAG_SYNC;
  query.fm_extent_count = 0;  // only count
  if (detail::sys().fiemap(fd_, &query) != 0) {
    int error = errno;
    if (error == EOPNOTSUPP || error == ENOTTY)
      throw std::system_error(EOPNOTSUPP, std::generic_category(),
                              detail::describe("count extents of", path_) +
                                  ": FIEMAP is not supported by this filesystem");
    detail::throw_error(error, "count extents of", path_);
  }
  return query.fm_mapped_extents;
}

void file::sync_data() {
  check_usable("fdatasync");
  if (detail::sys().fdatasync(fd_) != 0) poison(errno, "fdatasync");
}

void file::sync_all() {
  check_usable("fsync");
  if (detail::sys().fsync(fd_) != 0) poison(errno, "fsync");
}

// Direct I/O is for files and block devices, never a stream: EINVAL.
void file::check_direct_io_possible(unsigned mode) const {
  if (!S_ISFIFO(mode) && !S_ISSOCK(mode) && !S_ISCHR(mode)) return;
  kind_ = kind::stream;
  throw std::system_error(EINVAL, std::generic_category(),
                          detail::describe("statx", path_) +
                              ": direct I/O needs a file, not a pipe, socket or terminal");
}

std::size_t file::direct_io_alignment() const {
  check_usable("statx");
  struct statx sx {};
  if (detail::sys().statx(fd_, "", AT_EMPTY_PATH, STATX_DIOALIGN | STATX_TYPE, &sx) == 0 &&
      (sx.stx_mask & STATX_DIOALIGN)) {
    if (sx.stx_mask & STATX_TYPE) check_direct_io_possible(sx.stx_mode);
    if (sx.stx_dio_offset_align == 0)
      throw std::system_error(
          EINVAL, std::generic_category(),
          detail::describe("statx", path_) + ": the filesystem cannot do direct I/O on this file");
    return std::max(sx.stx_dio_mem_align, sx.stx_dio_offset_align);
  }
  struct stat st {};
  if (detail::sys().fstat(fd_, &st) != 0) detail::throw_error(errno, "stat", path_);
  check_direct_io_possible(st.st_mode);
  return static_cast<std::size_t>(st.st_blksize);
}

// True (and the file known as a stream) if `errno_value` is sync_file_range
// saying the descriptor is a pipe, socket or terminal: no page cache there.
bool file::no_page_cache(int errno_value) noexcept {
  if (errno_value != ESPIPE) return false;
  kind_ = kind::stream;
  return true;
}

void file::start_writeback(std::uint64_t offset, std::uint64_t length) {
  check_usable("sync_file_range");
  if (kind_ == kind::stream) return;
  if (detail::sys().sync_file_range(fd_, static_cast<off_t>(offset), static_cast<off_t>(length),
                                    SYNC_FILE_RANGE_WRITE) != 0 &&
      !no_page_cache(errno))
    detail::throw_error(errno, "sync_file_range", path_, offset);
}

void file::drop_cached(std::uint64_t offset, std::uint64_t length) {
  check_usable("sync_file_range");
  if (kind_ == kind::stream) return;
  constexpr unsigned wait_for_all =
      SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER;
  if (detail::sys().sync_file_range(fd_, static_cast<off_t>(offset), static_cast<off_t>(length),
                                    wait_for_all) != 0) {
    if (no_page_cache(errno)) return;
    poison(errno, "sync_file_range");
  }
  if (detail::sys().fadvise(fd_, static_cast<off_t>(offset), static_cast<off_t>(length),
                            POSIX_FADV_DONTNEED) != 0)
    detail::throw_error(errno, "posix_fadvise", path_, offset);
}

int file::release() noexcept { return std::exchange(fd_, -1); }

void file::close() {
  if (fd_ < 0) return;
  int fd = std::exchange(fd_, -1);
  // Linux releases the descriptor even when close fails: never retry it.
  if (owned_ && detail::sys().close(fd) != 0) {
    int error = errno;
    if (!failure_)
      throw detail::close_failure(error, std::generic_category(), detail::describe("close", path_));
    detail::report_close_after_failure(path_, std::error_code(error, std::generic_category()));
  }
  if (failure_) std::rethrow_exception(failure_);  // the sync that failed, as it was thrown
}

}  // namespace sluice
