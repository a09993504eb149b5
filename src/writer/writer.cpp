// sluice::writer: everything off the inline fast path.
#include "sluice/writer.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
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
#include "writer/uring_write_behind.hpp"
#include "writer/write_behind.hpp"

namespace sluice {
namespace {

// A writer synced at close starts the writeback of each MiB written: one
// sync_file_range per MiB, and close() waits for at most about that much
// plus what the disk has not caught up with.
constexpr std::uint64_t early_writeback_batch = 1024 * 1024;

std::size_t page_size() { return static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)); }

std::size_t requested_buffer_size(const writer_options& options) {
  if (options.buffer_size) return options.buffer_size;
  return options.caching == caching::direct ? writer_options::default_direct_buffer_size
                                            : writer_options::default_buffer_size;
}

std::span<const std::byte> bytes_of(const char* data, std::size_t size) {
  return {reinterpret_cast<const std::byte*>(data), size};
}

const char* name_of(durability level) {
  switch (level) {
    case durability::none: return "durability::none";
    case durability::data_on_close: return "durability::data_on_close";
    case durability::all_on_close: return "durability::all_on_close";
    case durability::write_through: return "durability::write_through";
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

// What went wrong: "write at offset 4096: No space left on device" (the
// report names the path already), else the failed call's own message
// without its prefix: "fdatasync 'out.bin': Input/output error".
std::string failure_of(const std::system_error& e) {
  if (const auto* w = dynamic_cast<const write_error*>(&e))
    return "write at offset " + std::to_string(w->offset()) + ": " + e.code().message();
  std::string_view what = e.what();
  if (what.starts_with(detail::message_prefix)) what.remove_prefix(detail::message_prefix.size());
  return std::string(what);
}

}  // namespace

void detail::free_deleter::operator()(char* buffer) const noexcept { std::free(buffer); }

writer::writer(const std::filesystem::path& path, writer_options options) {
  allocate_before_open(options);
  bool old_content = open_target(path, options);
  try {
    start(options, old_content);
  } catch (...) {
    if (modes_.replacing) detail::discard(target_, *modes_.replacing);
    throw;
  }
}

writer::writer(file&& target, writer_options options) : target_(std::move(target)) {
  const char* needs_path = options.atomic_replace               ? "atomic_replace"
                           : options.caching == caching::direct ? "caching::direct"
                                                                : nullptr;
  if (needs_path)
    throw std::system_error(EINVAL, std::generic_category(),
                            detail::describe("open", target_.path()) + ": " + needs_path +
                                " needs the writer to open the path itself");
  start(options);
}

// The buffer, allocated before the path is opened, so that a size no memory
// can hold neither empties nor creates anything. caching::direct's
// alignment is known only once the file is open: until then the buffer
// starts on a page and holds whole pages, which serves every alignment up
// to a page; adopt_direct_alignment() allocates again for a larger one,
// before the file opened (without O_TRUNC) is emptied.
void writer::allocate_before_open(const writer_options& options) {
  if (options.caching == caching::direct) block_ = page_size();
  allocate(requested_buffer_size(options));
}

// caching::direct, once the file is open: the alignment of every transfer.
// The buffer allocated before the open serves if a page is a multiple of
// it; only a larger (or odd) alignment costs a second allocation.
void writer::adopt_direct_alignment() {
  block_ = target_.direct_io_alignment();
  if (storage_ && page_size() % block_ != 0) allocate(capacity_);
}

// caching::direct opens an existing file without O_TRUNC, so that a buffer
// that cannot be allocated for its alignment loses nothing: it is emptied
// here, once the buffer is there. ftruncate for a regular file only, as
// O_TRUNC leaves a device alone. One fstat, one ftruncate.
void writer::empty_old_content() {
  struct stat st {};
  if (detail::sys().fstat(target_.native_handle(), &st) != 0)
    detail::throw_error(errno, "stat", target_.path());
  if (S_ISREG(st.st_mode)) target_.resize(0);
}

// The constructors' common part, once target_ is open: the buffer (if the
// constructor did not allocate it before opening), then, if `old_content`,
// the file emptied, then the reservation, so that nothing is accepted if
// the reservation fails.
void writer::start(const writer_options& options, bool old_content) {
  if (!target_.is_open())
    throw std::system_error(EBADF, std::generic_category(),
                            detail::describe("write", target_.path()) + ": the file is not open");
  if (options.caching == caching::direct) adopt_direct_alignment();
  if (!storage_) allocate(requested_buffer_size(options));
  if (old_content) empty_old_content();
  modes_.durability = options.durability;
  modes_.caching = options.caching;
  modes_.cached_from = target_.position();
  modes_.written_back_to = target_.position();
  if (options.durability != durability::none) check_syncable();
  if (options.preallocate != 0 && !target_.sequential()) reserve_space(options.preallocate);
  if (options.write_behind) start_write_behind();
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
    modes_.preallocated = true;
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
  if (other.behind_) other.behind_->drain();
  target_ = std::move(other.target_);
  storage_ = std::move(other.storage_);
  capacity_ = std::exchange(other.capacity_, 0);
  block_ = std::exchange(other.block_, 0);
  begin_ = std::exchange(other.begin_, nullptr);
  pos_ = std::exchange(other.pos_, nullptr);
  end_ = std::exchange(other.end_, nullptr);
  error_ = std::exchange(other.error_, nullptr);
  error_thrown_ = std::exchange(other.error_thrown_, false);
  modes_ = std::exchange(other.modes_, {});
  behind_ = std::move(other.behind_);
  if (behind_)
    behind_->rebind(
        [this](const char* data, std::size_t size, std::uint64_t offset, std::uint64_t& written) {
          write_in_background(data, size, offset, written);
        });
}

writer::~writer() { destroy(); }

// Closes; reports a failure only if nobody has seen it: an error this writer
// already threw to its caller is not reported again (see DESIGN.md: the
// caller was told, and the file holds exactly the bytes before it).
void writer::destroy() noexcept {
  if (!target_.is_open()) return;
  if (modes_.replacing) {
    behind_.reset();
    return detail::discard(target_, *modes_.replacing);  // only close() commits
  }
  bool told = error_thrown_;
  try {
    close();
  } catch (const std::exception& e) {
    if (!told) report_lost(e);
  }
}

// "sluice: close 'out.bin' in its destructor, 40 bytes lost: <what went wrong>"
void writer::report_lost(const std::exception& e) const noexcept {
  const auto* error = dynamic_cast<const std::system_error*>(&e);
  std::error_code code = error ? error->code() : std::error_code(EIO, std::generic_category());
  try {
    std::string lost = buffered() ? ", " + std::to_string(buffered()) + " bytes lost" : "";
    detail::report_error(code, detail::describe("close", target_.path()) + " in its destructor" +
                                   lost + ": " + (error ? failure_of(*error) : e.what()));
  } catch (...) {
    detail::report_error(code, "sluice: a writer's destructor failed to close its file");
  }
}

void writer::check_usable() {
  if (error_) rethrow_sticky();
  if (!target_.is_open())
    throw std::system_error(EBADF, std::generic_category(),
                            detail::describe("write", target_.path()) + ": the writer is closed");
}

// Runs `step`; whatever it throws becomes the writer's sticky error.
template <class Step>
void writer::sticking(Step&& step) {
  try {
    step();
  } catch (...) {
    fail(std::current_exception());
    error_thrown_ = true;
    throw;
  }
}

// Throws the sticky error to the caller.
void writer::rethrow_sticky() {
  error_thrown_ = true;
  std::rethrow_exception(error_);
}

void writer::fail(std::exception_ptr error) noexcept {
  error_ = std::move(error);
  end_ = pos_;  // no room left: every later write takes the slow path and rethrows
}

void writer::put_slow(char c) {
  check_usable();
  write_buffer();
  *pos_++ = c;
}

void writer::write_slow(const char* data, std::size_t size) {
  check_usable();
  if (size >= gather_threshold()) {
    drain();
    return write_buffer_and(data, size);
  }
  while (size > 0) {
    if (pos_ == end_) write_buffer();
    std::size_t n = std::min(size, static_cast<std::size_t>(end_ - pos_));
    std::memcpy(pos_, data, n);
    pos_ += n;
    data += n;
    size -= n;
  }
}

void writer::make_room(std::size_t n) {
  check_usable();
  write_buffer();
  if (n <= static_cast<std::size_t>(end_ - pos_)) return;
  std::size_t held = buffered();  // a direct writer's partial block
  if (n > std::numeric_limits<std::size_t>::max() - held) throw std::bad_alloc();
  allocate(held + n);
}

// A buffer of at least `capacity` bytes (rounded up to whole blocks for
// direct I/O), holding on to the bytes still buffered. A direct writer's
// buffer starts on a page even where the device asks for less: 512-byte
// alignment made 256 KiB O_DIRECT writes 25x slower on this project's test
// VM (39 against 975 MB/s), the kernel splitting them at every page.
void writer::allocate(std::size_t capacity) {
  detail::owned_buffer fresh = detail::allocate_buffer(capacity, buffer_alignment());
  std::size_t held = buffered();
  if (held) std::memcpy(fresh.data.get(), begin_, held);
  storage_ = std::move(fresh.data);
  capacity_ = block_ ? fresh.capacity : capacity;
  begin_ = storage_.get();
  pos_ = begin_ + held;
  end_ = begin_ + capacity_;
}

std::size_t writer::buffer_alignment() const {
  return block_ ? std::max(block_, page_size()) : alignof(std::max_align_t);
}

// Empties the buffer, but for a direct writer's partial last block: hands it
// to the write-behind engine if there is one, else writes it here.
void writer::write_buffer() {
  std::size_t held = buffered();
  std::size_t whole = block_ ? held - held % block_ : held;
  if (behind_ && whole > 0) return hand_off(held, whole);
  write_everything();
}

// Hands every buffered byte to the OS (a direct writer's partial last block
// padded, and kept buffered), after those given to the write-behind engine.
void writer::write_everything() {
  drain();
  write_buffer_and(nullptr, 0);
}

// Writes the buffered bytes followed by data[0, size) (one gathered write,
// or whole blocks for direct I/O, where size is 0), then applies the
// durability and caching options. On failure the bytes of the buffer that
// did not reach the file stay buffered; the payload counts as accepted only
// as far as it was written.
void writer::write_buffer_and(const char* data, std::size_t size) {
  std::size_t held = buffered();
  if (held + size == 0) return;
  std::uint64_t start = target_.position();
  if (block_)
    write_blocks(held);
  else
    write_gathered(held, data, size);
  sticking([&] { after_write(start, held + size); });
}

// What durability and caching ask after [start, start + length) was written.
// Runs on the background thread for the buffers handed to it, so it touches
// nothing but target_, modes_.cached_from and modes_.written_back_to; the
// caller's thread runs it only after drain(), when that thread is idle.
void writer::after_write(std::uint64_t start, std::uint64_t length) {
  if (modes_.durability == durability::write_through) target_.sync_data();
  if (modes_.caching == caching::no_cache) limit_cache(start, length);
  if (writes_back_early()) start_writeback_early(start + length);
}

// A writer whose close() syncs, on the page cache: what close() would wait
// for may as well be on its way to the disk while the rest is made.
bool writer::writes_back_early() const noexcept {
  bool syncs_at_close = modes_.replacing || modes_.durability == durability::data_on_close ||
                        modes_.durability == durability::all_on_close;
  return syncs_at_close && modes_.caching == caching::normal;
}

// Starts the writeback of what was written up to `end` since the last start,
// once that is at least early_writeback_batch: one sync_file_range per batch.
void writer::start_writeback_early(std::uint64_t end) {
  if (end - modes_.written_back_to < early_writeback_batch) return;
  target_.start_writeback(modes_.written_back_to, end - modes_.written_back_to);
  modes_.written_back_to = end;
}

void writer::write_gathered(std::size_t held, const char* data, std::size_t size) {
  std::span<const std::byte> pieces[2] = {bytes_of(begin_, held), bytes_of(data, size)};
  write_out({pieces, size ? 2u : 1u}, held);
  pos_ = begin_;
}

// Writes `pieces`, whose first `held` bytes are the buffer's. On failure
// what did not reach the file stays buffered and the error sticks.
void writer::write_out(std::span<const std::span<const std::byte>> pieces, std::size_t held) {
  sticking([&] {
    try {
      target_.write_gather(pieces);
    } catch (const write_error& e) {
      keep_unwritten(held, e.bytes_written());
      throw;
    }
  });
}

// caching::direct: writes the buffer at position() (block aligned), padded
// with zeros to whole blocks. A partial last block stays buffered, moved to
// the front, and position() stays at its start, so that the next write
// rewrites that block with what follows.
void writer::write_blocks(std::size_t held) {
  std::size_t padded = (held + block_ - 1) / block_ * block_;  // fits: capacity_ is whole blocks
  std::memset(pos_, 0, padded - held);
  std::uint64_t start = target_.position();
  std::span<const std::byte> piece = bytes_of(begin_, padded);
  try {
    write_out({&piece, 1}, held);
  } catch (const write_error&) {
    target_.seek(start + held - buffered());  // past the data, not the padding
    throw;
  }
  std::size_t whole = held - held % block_;
  std::memmove(begin_, begin_ + whole, held - whole);
  pos_ = begin_ + (held - whole);
  target_.seek(start + whole);
}

// After a write of `held` buffered bytes failed with `written` of them in the
// file: the others stay buffered, moved to the front.
void writer::keep_unwritten(std::size_t held, std::uint64_t written) noexcept {
  std::size_t kept = held - static_cast<std::size_t>(std::min<std::uint64_t>(written, held));
  std::memmove(begin_, pos_ - kept, kept);
  pos_ = begin_ + kept;
}

// caching::direct at close, after the last write: the file is cut to its
// exact size and the partial block counts as written.
void writer::trim_padding() {
  std::uint64_t end = tell();
  target_.resize(end);
  target_.seek(end);
  pos_ = begin_;
}

// no_cache, after [start, start + length) was written: its writeback starts;
// once two windows are cached, the older one is waited for and dropped.
void writer::limit_cache(std::uint64_t start, std::uint64_t length) {
  target_.start_writeback(start, length);
  std::uint64_t end = start + length;
  if (end - modes_.cached_from < 2 * writer_options::cache_window) return;
  std::uint64_t keep_from = end - writer_options::cache_window;
  target_.drop_cached(modes_.cached_from, keep_from - modes_.cached_from);
  modes_.cached_from = keep_from;
}

// io_uring where it can serve, else the thread (see writer_options).
void writer::start_write_behind() {
  bool per_write_work = modes_.durability == durability::write_through ||
                        modes_.caching == caching::no_cache || writes_back_early();
  // A borrowed descriptor is written at its own offset, one write after
  // another: only the thread keeps that order.
  if (!per_write_work && !target_.sequential())
    behind_ = detail::uring_write_behind::open(target_.native_handle(), target_.path(),
                                               writer_options::write_behind_depth,
                                               buffer_alignment(), capacity_);
  if (behind_) return;
  behind_ = std::make_unique<detail::thread_write_behind>(
      writer_options::write_behind_depth, buffer_alignment(),
      [this](const char* data, std::size_t size, std::uint64_t offset, std::uint64_t& written) {
        write_in_background(data, size, offset, written);
      });
}

write_behind_engine writer::write_behind_engine() const noexcept {
  return behind_ ? behind_->engine() : sluice::write_behind_engine::none;
}

// The background thread's step: one handed-off buffer, at the offset it was
// given when handed off; `written` counts what reached the file.
void writer::write_in_background(const char* data, std::size_t size, std::uint64_t offset,
                                 std::uint64_t& written) {
  try {
    target_.write_at(bytes_of(data, size), offset);
  } catch (const write_error& e) {
    written = e.bytes_written();
    throw;
  }
  written = size;
  after_write(offset, size);
}

// Gives the buffer's first `whole` bytes to the write-behind engine and goes
// on with a fresh buffer holding the rest of the `held` (a direct writer's
// partial block); if the engine has failed, takes its failure back.
void writer::hand_off(std::size_t held, std::size_t whole) {
  std::uint64_t offset = target_.position();
  char* tail = begin_ + whole;
  detail::owned_buffer next = behind_->hand_off(storage_, capacity_, whole, offset);
  target_.seek(offset + whole);
  if (!next.data) return take_back_failure({tail, held - whole});  // tail: in the queued buffer
  std::memcpy(next.data.get(), tail, held - whole);  // the old buffer waits in the queue
  storage_ = std::move(next.data);
  begin_ = storage_.get();
  pos_ = begin_ + (held - whole);
  end_ = begin_ + capacity_;
}

// Waits until the write-behind engine has written everything handed to it;
// throws its failure, if any.
void writer::drain() {
  if (behind_ && !behind_->drain()) take_back_failure({begin_, buffered()});
}

// The write-behind engine failed: the bytes it could not write, then `rest`
// (those that follow them), become the buffer; position() goes back to the
// first of them, the engine ends, and its error sticks and is thrown.
void writer::take_back_failure(std::span<const char> rest) {
  detail::write_behind::failed_writes failed = behind_->failure();
  fail(failed.error);  // sticks, and stops inline writes, even if what follows cannot allocate
  failed.unwritten.push_back(rest);
  std::size_t total = 0;
  for (auto piece : failed.unwritten) total += piece.size();
  detail::owned_buffer taken_back =
      detail::allocate_buffer(std::max(capacity_, total), buffer_alignment());
  char* to = taken_back.data.get();
  for (auto piece : failed.unwritten) to = std::copy(piece.begin(), piece.end(), to);
  storage_ = std::move(taken_back.data);
  capacity_ = block_ ? taken_back.capacity : std::max(capacity_, total);
  begin_ = storage_.get();
  pos_ = begin_ + total;
  target_.seek(failed.offset);
  behind_.reset();
  fail(failed.error);
  rethrow_sticky();
}

// 32 bytes hold the longest shortest-round-trip form ("-2.2250738585072014e-308").
void writer::print(double value) { print_chars(value, 32); }
void writer::print(float value) { print_chars(value, 32); }

void writer::flush() {
  check_usable();
  write_everything();
}

void writer::sync() {
  flush();
  if (modes_.durability != durability::write_through) sync_data_or_fail();  // else flush() did
}

// fdatasync; a failure poisons the writer for good (no retry, see DESIGN.md).
void writer::sync_data_or_fail() {
  sticking([&] { target_.sync_data(); });
}

// After the last write: give back the unused reservation, then sync as asked
// or put the replacement in place (which syncs all).
void writer::finish_file() {
  if (block_)
    trim_padding();  // which gives back a reservation too
  else if (modes_.preallocated)
    target_.resize(target_.size());
  if (modes_.caching == caching::no_cache)
    target_.drop_cached(modes_.cached_from, 0);  // 0: to the end
  if (modes_.replacing) return detail::install(target_, *modes_.replacing);
  if (modes_.durability == durability::data_on_close) target_.sync_data();
  if (modes_.durability == durability::all_on_close) target_.sync_all();
}

// After a failure, the file is cut to the bytes known to be in it: a direct
// writer's are those before position() (its buffered partial block and
// padding go), and space reserved past the end is given back (it may be what
// the disk is short of). A failure here adds nothing to the error already
// being reported, so it is not reported.
void writer::trim_after_failure() noexcept {
  try {
    target_.resize(block_ ? target_.position() : target_.size());
  } catch (const std::exception&) {
  }
}

void writer::close() {
  if (!target_.is_open()) {
    if (error_) rethrow_sticky();  // a failed close() stays failed
    return;
  }
  std::exception_ptr first = error_ ? error_ : finish();
  behind_.reset();  // idle: finish() waited for it, or it failed
  if (first) give_up();
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
    write_everything();
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
    try {
      detail::report_error(e.code(), detail::describe("close", target_.path()) +
                                         " after an earlier failure: " + e.code().message());
    } catch (...) {
      detail::report_error(e.code(), "sluice: a writer's close failed after an earlier failure");
    }
  } catch (...) {
  }
}

// After a failure: the replacement is discarded, the reservation given back.
void writer::give_up() noexcept {
  if (modes_.replacing) detail::discard(target_, *modes_.replacing);
  if ((modes_.preallocated || block_) && target_.is_open()) trim_after_failure();
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
