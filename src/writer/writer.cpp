// sluice::writer: everything off the inline fast path. How the buffer
// reaches the OS is the flush strategy's (writer/flush_strategy.hpp); this
// file holds the buffer, the sticky error and the order of close().
#include "sluice/writer.hpp"

#include <bit>
#include <cerrno>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <string_view>
#include <utility>

#include "os/close_failure.hpp"
#include "os/directory.hpp"
#include "os/error_messages.hpp"
#include "os/sys.hpp"
#include "writer/atomic_replace.hpp"
#include "writer/foreground_flush.hpp"
#include "writer/write_behind.hpp"

namespace sluice {
namespace {

std::size_t requested_buffer_size(const writer_options& options) {
  if (options.buffer_size) return options.buffer_size;
  return options.caching == caching_mode::direct ? writer_options::default_direct_buffer_size
                                                 : writer_options::default_buffer_size;
}

const char* name_of(durability level) {
  switch (level) {
    case durability_mode::none: return "durability::none";
    case durability_mode::data_on_close: return "durability::data_on_close";
    case durability_mode::all_on_close: return "durability::all_on_close";
    case durability_mode::write_through: return "durability::write_through";
  }
  return "durability";
}

// Whether a failed reservation just means there is none to be had: a
// filesystem without fallocate, a pipe (ESPIPE), a socket or a terminal
// (ENODEV).
bool cannot_preallocate(const std::system_error& e) {
  int error = e.code().value();
  return error == EOPNOTSUPP || error == ESPIPE || error == ENODEV;
}

}  // namespace

// The buffer is allocated before the path is opened, so that a size no
// memory can hold neither empties nor creates anything. caching_mode::direct's
// alignment is known only once the file is open: until then the buffer
// starts on a page and holds whole pages, which serves every alignment up
// to a page; a larger one allocates again (direct_flush::attach), before
// the file opened (without O_TRUNC) is emptied.
writer::writer(const std::filesystem::path& path, writer_options options) {
  std::unique_ptr<detail::foreground_flush> way = detail::make_flush_strategy(options);
  detail::install_buffer(*this, way->allocate(requested_buffer_size(options)));
  bool old_content = open_target(path, options);
  try {
    start(options, std::move(way), old_content);
  } catch (...) {
    if (modes_.replacing) detail::discard(target_, *modes_.replacing);
    throw;
  }
}

writer::writer(file&& target, writer_options options) {
  target_ = std::move(target);
  const char* needs_path = options.atomic_replace                    ? "atomic_replace"
                           : options.caching == caching_mode::direct ? "caching::direct"
                                                                     : nullptr;
  if (needs_path)
    throw std::system_error(EINVAL, std::generic_category(),
                            detail::describe("open", target_.path()) + ": " + needs_path +
                                " needs the writer to open the path itself");
  start(options, detail::make_flush_strategy(options));
}

// caching_mode::direct and write_behind open an existing file without
// O_TRUNC, so that a buffer that cannot be allocated (for the alignment, or
// the engine's) loses nothing: it is emptied here, once the memory is
// there. ftruncate for a regular file that holds something only, as
// O_TRUNC leaves a device alone. One fstat, and one ftruncate if needed.
void writer::empty_old_content() {
  detail::file_facts facts;
  if (detail::sys().facts(target_.native_handle(), &facts) != 0)
    detail::throw_error(errno, "stat", target_.path());
  if (facts.type == detail::file_type::regular && facts.size != 0) target_.resize(0);
}

// The constructors' common part, once target_ is open: the way to the OS
// attached to it, the buffer (if the constructor did not allocate it
// before opening), the write-behind engine (its buffers), then, if
// `old_content`, the file emptied, once nothing that can run out of memory
// is left, then the reservation, so that nothing is accepted if the
// reservation fails.
void writer::start(const writer_options& options, std::unique_ptr<detail::foreground_flush> way,
                   bool old_content) {
  if (!target_.is_open())
    throw std::system_error(EBADF, std::generic_category(),
                            detail::describe("write", target_.path()) + ": the file is not open");
  way->attach(*this,
              detail::write_followup(options, modes_.replacing != nullptr, target_.position()));
  if (!storage_) detail::install_buffer(*this, way->allocate(requested_buffer_size(options)));
  modes_.durability = options.durability;
  if (options.durability != durability_mode::none) check_syncable();
  if (options.write_behind)
    flush_ = detail::start_write_behind(std::move(way), *this, old_content);
  else if (options.caching == caching_mode::direct)
    flush_ = detail::start_in_flight(std::move(way), *this, old_content);
  else
    flush_ = std::move(way);
  if (old_content) empty_old_content();
  if (options.preallocate != 0 && !target_.sequential()) reserve_space(options.preallocate);
}

// A durability option on a pipe, socket or terminal could only fail at the
// first sync (EINVAL): refused here instead, naming the option. One fstat.
void writer::check_syncable() {
  if (!target_.is_stream()) return;
  throw std::system_error(EINVAL, std::generic_category(),
                          detail::describe("open", target_.path()) + ": " +
                              name_of(modes_.durability) +
                              " needs a file that can be synced, not a pipe, socket or terminal");
}

// Reserves `length` bytes from position(); where that cannot be done at all,
// goes on without (preallocated() says so).
void writer::reserve_space(std::uint64_t length) {
  try {
    target_.preallocate(target_.position(), length, preallocate_mode::keep_size);
    modes_.reserved_end = target_.position() + length;
    flush_->reserved(modes_.reserved_end);
  } catch (const std::system_error& e) {
    if (!cannot_preallocate(e)) throw;
  }
}

writer::writer(writer&& other) noexcept { take(other); }

writer& writer::operator=(writer&& other) noexcept {
  if (this != &other) {
    destroy();
    take(other);
  }
  return *this;
}

// Moves `other`'s state here. Its write-behind engine first finishes what it
// was given (a failure stays recorded for this writer to throw), then
// writes through this writer.
void writer::take(writer& other) noexcept {
  if (other.flush_) other.flush_->rebind(*this);
  target_ = std::move(other.target_);
  storage_ = std::move(other.storage_);
  capacity_ = std::exchange(other.capacity_, 0);
  begin_ = std::exchange(other.begin_, nullptr);
  pos_ = std::exchange(other.pos_, nullptr);
  end_ = std::exchange(other.end_, nullptr);
  error_ = std::exchange(other.error_, nullptr);
  error_thrown_ = std::exchange(other.error_thrown_, false);
  modes_ = std::exchange(other.modes_, {});
  flush_ = std::move(other.flush_);
}

writer::~writer() { destroy(); }

// Closes; reports a failure only if nobody has seen it: an error this writer
// already threw to its caller is not reported again (see DESIGN.md: the
// caller was told, and the file holds exactly the bytes before it).
void writer::destroy() noexcept {
  if (!target_.is_open()) return;
  if (modes_.replacing) {
    flush_.reset();
    return detail::discard(target_, *modes_.replacing);  // only close() commits
  }
  bool told = error_thrown_;
  try {
    close();
  } catch (const std::exception& e) {
    // "sluice: close 'out.bin' in its destructor, 40 bytes lost: <what went wrong>"
    if (!told) detail::report_from_destructor(target_.path(), e, buffered());
  }
}

void writer::check_usable() {
  if (error_) rethrow_sticky();
  if (!target_.is_open())
    throw std::system_error(EBADF, std::generic_category(),
                            detail::describe("write", target_.path()) + ": the writer is closed");
}

std::size_t writer::gather_threshold() const noexcept {
  return flush_ ? flush_->gather_threshold(capacity_) : 2 * capacity_;
}

void writer::put_slow(char c) {
  check_usable();
  flush_->make_room(*this);
  *pos_++ = c;
}

void writer::write_slow(const char* data, std::size_t size) {
  check_usable();
  flush_->write(*this, {data, size});
}

void writer::put_bits_slow(std::uint64_t bits, std::size_t size) {
  // The narrower value's bytes are the low-order ones of `bits`: first in
  // memory on a little-endian host, last on a big-endian one.
  char bytes[sizeof bits];
  std::memcpy(bytes, &bits, sizeof bits);
  write_slow(std::endian::native == std::endian::little ? bytes : bytes + sizeof bits - size, size);
}

void writer::make_room(std::size_t n) {
  check_usable();
  flush_->make_room(*this);
  if (n <= static_cast<std::size_t>(end_ - pos_)) return;
  std::size_t held = buffered();  // a direct writer's partial block
  if (n > std::numeric_limits<std::size_t>::max() - held) throw std::bad_alloc();
  detail::install_buffer(*this, flush_->allocate(held + n));
}

write_behind_engine writer::write_behind_engine() const noexcept {
  return flush_ ? flush_->engine() : sluice::write_behind_engine::none;
}

// 32 bytes hold the longest shortest-round-trip form ("-2.2250738585072014e-308").
void writer::print(double value) { print_chars(value, 32); }
void writer::print(float value) { print_chars(value, 32); }

void writer::flush() {
  check_usable();
  flush_->write_all(*this);
}

void writer::sync() {
  flush();
  if (modes_.durability != durability_mode::write_through) sync_data_or_fail();  // else flush() did
}

// fdatasync; a failure poisons the writer for good (no retry, see DESIGN.md).
void writer::sync_data_or_fail() {
  sticking([&] { target_.sync_data(); });
}

// After the last write: the file cut to its size (a reservation given
// back), then synced as asked, or the replacement put in place (which
// syncs all).
void writer::finish_file() {
  flush_->finish(*this, modes_.reserved_end);
  if (modes_.replacing) return detail::install(target_, *modes_.replacing);
  if (modes_.durability == durability_mode::data_on_close) target_.sync_data();
  if (modes_.durability == durability_mode::all_on_close) target_.sync_all();
}

void writer::close() {
  if (!target_.is_open()) {
    if (error_) rethrow_sticky();  // a failed close() stays failed
    return;
  }
  std::exception_ptr first = error_ ? error_ : finish();
  if (error_) first = error_;  // a write error stuck on the way wins over what followed it
  if (first) give_up();
  flush_.reset();  // idle: finish() waited for it, or it failed
  std::exception_ptr closing = close_file(!first);
  if (!first)
    first = closing;
  else if (closing)
    report_after_failure(closing);
  if (first) {
    fail(first);  // the unwritten bytes stay counted in buffered()
    rethrow_sticky();
  }
  storage_.reset();
  begin_ = pos_ = end_ = nullptr;
}

// The last write and what follows it; the first failure, or null.
std::exception_ptr writer::finish() noexcept {
  try {
    flush_->write_all(*this);
    finish_file();
    return nullptr;
  } catch (...) {
    return std::current_exception();
  }
}

// A close(2) that fails after the failure close() throws is reported through
// the error handler: the OS may have dropped bytes it had accepted (NFS
// reports write errors at close), which that first error does not say. A
// failed sync repeated by the close is not: it is the first error again.
void writer::report_after_failure(std::exception_ptr closing) const noexcept {
  try {
    std::rethrow_exception(std::move(closing));
  } catch (const detail::close_failure& e) {
    detail::report_close_after_failure(target_.path(), e.code());
  } catch (...) {
  }
}

// After a failure: the replacement is discarded, the file cut to the bytes
// known to be in it.
void writer::give_up() noexcept {
  if (modes_.replacing) detail::discard(target_, *modes_.replacing);
  flush_->trim_after_failure(*this, modes_.reserved_end);
}

// Closes the file if it is still open, then, if asked, syncs the directory
// all_on_close keeps open (after a failure it is only closed); the first
// failure, or null.
std::exception_ptr writer::close_file(bool then_sync_directory) noexcept {
  try {
    file directory = std::move(modes_.directory);
    target_.close();
    if (then_sync_directory && directory.is_open()) detail::sync_open_directory(directory);
    return nullptr;
  } catch (...) {
    return std::current_exception();
  }
}

}  // namespace sluice
