// sluice::file: every operation on one descriptor, through detail::sys.
#include "sluice/file.hpp"

#include <algorithm>
#include <cerrno>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "os/close_failure.hpp"
#include "os/directory.hpp"
#include "os/error_messages.hpp"
#include "os/open_path.hpp"
#include "os/path_text.hpp"
#include "os/sticky_error.hpp"
#include "os/sys.hpp"
#include "os/transfer.hpp"

namespace sluice {
namespace {

using access = detail::open_request::access;
using detail::io_piece;

detail::open_request request_for(open_mode mode) {
  switch (mode) {
    case open_mode::truncate: return {.mode = access::write, .create = true, .truncate = true};
    case open_mode::truncate_existing: return {.mode = access::write, .truncate = true};
    case open_mode::create_new:
      return {.mode = access::read_write, .create = true, .exclusive = true};
    case open_mode::append: return {.mode = access::write, .create = true, .append = true};
    case open_mode::open_existing: return {.mode = access::read_write};
    case open_mode::read_only: return {};
  }
  return {};
}

bool is_stream_type(detail::file_type type) {
  return type == detail::file_type::fifo || type == detail::file_type::socket ||
         type == detail::file_type::character_device;
}

io_piece to_piece(std::span<const std::byte> bytes) {
  return {const_cast<std::byte*>(bytes.data()), bytes.size()};
}

// The iovecs describing a list of buffers (written from or read into): on
// the stack up to the count the writer needs, so that it allocates nothing,
// on the heap beyond.
class piece_list {
 public:
  template <class Byte>
  explicit piece_list(std::span<const std::span<Byte>> buffers) {
    if (buffers.size() > on_stack) {
      large_.resize(buffers.size());
      data_ = large_.data();
    }
    for (std::size_t i = 0; i < buffers.size(); ++i) data_[i] = to_piece(buffers[i]);
  }
  piece_list(const piece_list&) = delete;
  piece_list& operator=(const piece_list&) = delete;

  io_piece* data() noexcept { return data_; }

 private:
  static constexpr std::size_t on_stack = 8;
  io_piece small_[on_stack];
  std::vector<io_piece> large_;
  io_piece* data_ = small_;
};

}  // namespace

file detail::open_path(const std::filesystem::path& path, file_options options, bool sequential) {
  detail::handle fd = detail::restart_interrupted([&] {
    detail::open_request how = request_for(options.mode);
    how.direct = options.direct;
    how.permissions = options.permissions;
    how.sequential = sequential;
    return detail::sys().open(detail::working_directory, detail::path_text(path).c_str(), how);
  });
  if (fd == detail::no_handle())
    detail::throw_open_failure(errno, detail::path_text(path), options.direct);
  file opened(fd, detail::path_text(path));
  if (options.mode == open_mode::append) opened.seek(opened.size());
  return opened;
}

file file::open(const std::filesystem::path& path, file_options options) {
  return detail::open_path(path, options, false);
}

file::file(native_handle_type fd, std::string path) noexcept : fd_(fd), path_(std::move(path)) {}

file file::borrow(native_handle_type fd, std::string path) noexcept {
  file borrowed(fd, std::move(path));
  borrowed.owned_ = false;
  borrowed.sequential_ = true;
  return borrowed;
}

file::file(file&& other) noexcept
    : fd_(std::exchange(other.fd_, none())),
      owned_(other.owned_),
      sequential_(other.sequential_),
      kind_(other.kind_),
      position_(other.position_),
      failure_(std::move(other.failure_)),
      path_(std::move(other.path_)) {}

file& file::operator=(file&& other) noexcept {
  if (this != &other) {
    file discarded(std::move(*this));
    fd_ = std::exchange(other.fd_, none());
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
  if (fd_ == none() || !owned_) return;
  if (detail::sys().close(fd_) != 0) {
    detail::report_close_from_destructor(path_, errno);
  }
}

void file::check_usable(const char* operation) const {
  if (fd_ == none()) detail::throw_error(EBADF, operation, path_);
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
std::uint64_t file::write_all(io_piece* iov, std::size_t count, std::uint64_t offset) {
  auto result = detail::transfer(fd_, detail::direction::write, iov, count, offset, sequential_);
  learn_sequential(result.sequential);
  if (result.error != 0) throw detail::write_failed(result.error, path_, offset, result.done);
  return result.done;
}

void file::write_at(std::span<const std::byte> bytes, std::uint64_t offset) {
  check_usable("write");
  io_piece one = to_piece(bytes);
  write_all(&one, 1, offset);
}

void file::write(std::span<const std::byte> bytes) { write_gather({&bytes, 1}); }

void file::write_gather(std::span<const std::span<const std::byte>> buffers) {
  check_usable("write");
  piece_list iov(buffers);
  try {
    position_ += write_all(iov.data(), buffers.size(), position_);
  } catch (const write_error& e) {
    position_ = e.offset();
    throw;
  }
}

// Reads into the iovecs at `offset` (or sequentially) or throws; returns
// the byte count.
std::size_t file::read_iov(io_piece* iov, std::size_t count, std::uint64_t offset,
                           detail::extent until) {
  check_usable("read");
  auto result =
      detail::transfer(fd_, detail::direction::read, iov, count, offset, sequential_, until);
  learn_sequential(result.sequential);
  if (result.error != 0) detail::throw_error(result.error, "read", path_, offset + result.done);
  return result.done;
}

std::size_t file::read_at(std::span<std::byte> bytes, std::uint64_t offset) {
  return read_gather({&bytes, 1}, offset);
}

std::size_t file::read_some_at(std::span<std::byte> bytes, std::uint64_t offset) {
  io_piece one = to_piece(bytes);
  return read_iov(&one, 1, offset, detail::extent::first_bytes);
}

std::size_t file::read_gather(std::span<const std::span<std::byte>> buffers, std::uint64_t offset) {
  piece_list iov(buffers);
  return read_iov(iov.data(), buffers.size(), offset, detail::extent::all);
}

std::uint64_t file::size() const {
  check_usable("stat");
  detail::file_facts facts;
  if (detail::sys().facts(fd_, &facts) != 0) detail::throw_error(errno, "stat", path_);
  return facts.size;
}

bool file::is_stream() const {
  if (kind_ == kind::unknown) {
    check_usable("stat");
    detail::file_facts facts;
    if (detail::sys().facts(fd_, &facts) != 0) detail::throw_error(errno, "stat", path_);
    bool stream = is_stream_type(facts.type);
    kind_ = stream ? kind::stream : kind::seekable;
    if (stream) sequential_ = true;
  }
  return kind_ == kind::stream;
}

void file::resize(std::uint64_t new_size) {
  check_usable("resize");
  if (detail::restart_interrupted(
          [&] { return detail::sys().resize(fd_, static_cast<std::int64_t>(new_size)); }) != 0)
    detail::throw_error(errno, "resize", path_, new_size);
}

void file::preallocate(std::uint64_t offset, std::uint64_t length, preallocate_mode mode) {
  check_usable("preallocate");
  auto how = mode == preallocate_mode::keep_size ? detail::space_mode::keep_size
                                                 : detail::space_mode::grow;
  if (detail::restart_interrupted([&] {
        return detail::sys().preallocate(fd_, static_cast<std::int64_t>(offset),
                                         static_cast<std::int64_t>(length), how);
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
  std::uint64_t count = 0;
  if (detail::sys().count_extents(fd_, &count) != 0) {
    int error = errno;
    if (error == EOPNOTSUPP || error == ENOTTY)
      throw std::system_error(EOPNOTSUPP, std::generic_category(),
                              detail::describe("count extents of", path_) +
                                  ": FIEMAP is not supported by this filesystem");
    detail::throw_error(error, "count extents of", path_);
  }
  return count;
}

void file::sync_data() {
  check_usable("fdatasync");
  if (detail::sys().sync_data(fd_) != 0) poison(errno, "fdatasync");
}

void file::sync_all() {
  check_usable("fsync");
  if (detail::sys().sync_all(fd_) != 0) poison(errno, "fsync");
}

// Direct I/O is for files and block devices, never a stream: EINVAL.
void file::check_direct_io_possible(bool stream) const {
  if (!stream) return;
  kind_ = kind::stream;
  throw std::system_error(EINVAL, std::generic_category(),
                          detail::describe("statx", path_) +
                              ": direct I/O needs a file, not a pipe, socket or terminal");
}

std::size_t file::direct_io_alignment() const {
  check_usable("statx");
  detail::direct_io_facts direct;
  if (detail::sys().direct_alignment(fd_, &direct) == 0 && direct.known) {
    if (direct.type_known) check_direct_io_possible(is_stream_type(direct.type));
    if (direct.offset == 0)
      throw std::system_error(
          EINVAL, std::generic_category(),
          detail::describe("statx", path_) + ": the filesystem cannot do direct I/O on this file");
    return std::max(direct.memory, direct.offset);
  }
  detail::file_facts facts;
  if (detail::sys().facts(fd_, &facts) != 0) detail::throw_error(errno, "stat", path_);
  check_direct_io_possible(is_stream_type(facts.type));
  return static_cast<std::size_t>(facts.block_size);
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
  if (detail::sys().writeback(fd_, static_cast<std::int64_t>(offset),
                              static_cast<std::int64_t>(length), false) != 0 &&
      !no_page_cache(errno))
    detail::throw_error(errno, "sync_file_range", path_, offset);
}

void file::drop_cached(std::uint64_t offset, std::uint64_t length) {
  check_usable("sync_file_range");
  if (kind_ == kind::stream) return;
  if (detail::sys().writeback(fd_, static_cast<std::int64_t>(offset),
                              static_cast<std::int64_t>(length), true) != 0) {
    if (no_page_cache(errno)) return;
    poison(errno, "sync_file_range");
  }
  if (detail::sys().drop_cache(fd_, static_cast<std::int64_t>(offset),
                               static_cast<std::int64_t>(length)) != 0)
    detail::throw_error(errno, "posix_fadvise", path_, offset);
}

native_handle_type file::release() noexcept { return std::exchange(fd_, none()); }

void file::close() {
  if (fd_ == none()) return;
  native_handle_type fd = std::exchange(fd_, none());
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
