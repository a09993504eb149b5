// sluice/writer.hpp - sluice::writer, buffered output to one file.
//
// A writer gathers output in a buffer and hands it to the OS in large writes.
// It is not synchronized: one thread at a time. put() and write() of what
// fits in the buffer are inline (a bounds check and a copy); everything else
// is out of line. A write() that does not fit and is at least
// gather_threshold() bytes goes out with the buffered bytes in one pwritev,
// without being copied.
//
// Durability: flush() hands the bytes to the OS (they survive a crash of the
// process, not a power loss); sync() also makes them durable (fdatasync);
// close() flushes and closes.
//
// Errors (see <sluice/error.hpp>): the first failure is thrown and then
// sticks: every later call that would write throws it again. Bytes the OS did
// not take stay in the buffer; nothing is written twice; the file then holds
// exactly the bytes before the write_error's offset() (with
// caching_mode::direct, until close() it may also hold one padded block past
// it, written before the failure: close() cuts it). A failed sync poisons
// the writer for good. The destructor closes without throwing: if that fails,
// or bytes are left unwritten, it tells the error handler how many were lost,
// unless the failure is one the writer already threw to its caller (who was
// told then, and knows the file holds the bytes before it). A close(2) that
// fails after another failure (which close() throws, or the destructor
// reports or was thrown already) goes to the error handler, from close()
// and the destructor alike: the OS may have dropped bytes it had accepted.
//
// Pipes, sockets and terminals: a writer on standard output is made from
// file::borrow(STDOUT_FILENO, name), whose close() leaves fd 1 open; a path
// naming a FIFO works too. Such a writer writes with writev (see
// <sluice/file.hpp>), tell() counts the bytes accepted, and a reader that has
// gone makes the write fail with EPIPE, sticky like any error (once SIGPIPE,
// by default fatal, has been dealt with). Each option says what it does there.
//
// Example:
//   sluice::writer out("numbers.txt");
//   for (int i = 0; i < 1000; ++i) { out.print(i); out.put('\n'); }
//   out.close();  // throws if any byte could not be written
//
//   sluice::writer piped(sluice::file::borrow(STDOUT_FILENO, "standard output"));
//   piped.write("works for `prog | gzip` as for `prog > file`\n");
//   piped.close();  // flushes; fd 1 stays open
//
//   // Binary: fixed-width fields in a stated byte order, and raw bytes.
//   sluice::writer patch("out.patch");
//   patch.write("PTCH", 4);                    // write(data, size), as fwrite
//   patch.put_le(std::uint16_t{1});            // 01 00, on any host
//   patch.put_be(std::uint32_t{0x0a0b0c0d});   // 0a 0b 0c 0d
//   patch.put(std::byte{0x7f});
//   patch.write(std::span(samples));           // a vector<float>'s bytes, host order
//   patch.close();
#pragma once

#include <algorithm>
#include <bit>
#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "sluice/file.hpp"
#include "sluice/format.hpp"

namespace sluice {

// How durable a writer's bytes are when close() returns
// (writer_options::durability). Every level but none needs a file that can
// be synced: on a pipe, socket or terminal it makes the constructor throw
// EINVAL naming it (found with one fstat).
enum class durability_mode {
  // No sync: the bytes reach the OS at flush() and close(), and survive a
  // crash of the process, not a power loss.
  none,
  // close() returns after fdatasync: the data and the file's size are
  // durable.
  data_on_close,
  // close() returns after fsync and, when the writer created the file, an
  // fsync of its directory: data, metadata and name are durable. How the
  // path's links and directory are found: docs/writer.md#all_on_close
  all_on_close,
  // Every write to the OS (a full buffer, a gathered payload, flush(),
  // close()) is followed by fdatasync, like O_DSYNC: a device flush per
  // buffer. Measured: docs/performance.md#write_through-pwritev--fdatasync
  write_through,
};
// durability_mode's former name, kept so that existing code compiles.
using durability = durability_mode;

// What a writer does with the page cache (writer_options::caching).
enum class caching_mode {
  // The kernel keeps what was written cached, as for any write.
  normal,
  // Writing a file larger than memory does not flood the page cache: each
  // write's writeback starts at once (sync_file_range), what lies more than
  // cache_window bytes behind the end is waited for and dropped
  // (POSIX_FADV_DONTNEED), and close() drops the rest. Not a durability
  // mode: nothing is synced. Does nothing on a pipe, socket or terminal,
  // which has no page cache. Measured: docs/performance.md#no_cache
  no_cache,
  // O_DIRECT: buffers go to the device past the page cache, every transfer
  // aligned as file::direct_io_alignment() says (write()s are always
  // copied; until close() the file may end in up to one block of zeros).
  // Where io_uring serves, two writes stay in flight as with write_behind;
  // on ext4 and XFS the file's size then runs up to four buffers ahead of
  // them (reserved, reading as zeros): flush(), sync() and close() cut it
  // back, and throw if that cut fails.
  // Only for writer(path). Detail: docs/writer.md#caching_modedirect
  // Measured: docs/performance.md#direct-two-writes-in-flight
  direct,
};
// caching_mode's former name, kept so that existing code compiles.
using caching = caching_mode;

// What writes a writer's buffers in the background
// (writer::write_behind_engine()); which one a writer gets:
// docs/writer.md#write_behind
enum class write_behind_engine {
  // None: write_behind is off (and caching_mode::direct has no ring), or a
  // failure ended it. Each buffer is written on the caller's thread.
  none,
  // A background thread writes the buffers, one at a time, in order.
  thread,
  // Several io_uring writes in flight, reaped on the caller's thread.
  io_uring,
};

// How a writer buffers, syncs and caches its file, and how it replaces it.
// Each field says what it does, its default, its cost and how it fails;
// docs/writer.md has the detail, docs/performance.md the figures.
struct writer_options {
  // Bytes buffered before a write to the OS; any size from 1 byte up is
  // honoured.
  // Default: 0, meaning default_buffer_size (default_direct_buffer_size with
  // caching_mode::direct).
  // Cost: the buffer's memory (write_behind keeps up to write_behind_depth
  // more), and one system call per buffer written. A buffer that cannot be
  // allocated throws std::bad_alloc from the constructor (see writer(path)
  // for what that leaves).
  std::size_t buffer_size = 0;

  // Bytes to reserve on disk up front, from where writing starts (fallocate,
  // keeping the size): the file is laid out in few extents, and growing it
  // allocates no blocks. Writing past the reservation works as usual; close()
  // gives back what was not written, so the size is always exactly the bytes
  // written.
  // Default: 0, no reservation.
  // Cost: one fallocate at construction; at close(), one fstat and, if
  // fewer bytes were written than reserved, one ftruncate, which on XFS
  // first writes back the file's dirty pages (a reservation the data
  // reaches costs no ftruncate).
  // Failure: on a filesystem without fallocate, a pipe, socket, terminal or
  // borrowed descriptor (file::borrow) the writer goes on without, and
  // preallocated() says so; any other failure (ENOSPC) throws from the
  // constructor, before any data is accepted.
  std::uint64_t preallocate = 0;

  // How durable the bytes are when close() returns (durability_mode above).
  // Default: durability_mode::none.
  // Cost: a sync at close() (data_on_close, all_on_close) or after every
  // write to the OS (write_through). A writer synced at close (atomic_replace
  // too), on the page cache (caching_mode::normal), starts each MiB's
  // writeback as soon as it is written (sync_file_range, which waits for
  // nothing), so that close() does not wait for the whole file.
  // Failure: a failed sync poisons the writer: close() throws it, and no
  // retry is offered. A failure to start writeback (EIO) throws a
  // std::system_error naming sync_file_range, and sticks.
  durability_mode durability = durability_mode::none;

  // What the writer does with the page cache (caching_mode above).
  // Default: caching_mode::normal.
  // Cost: no_cache, a sync_file_range per write and, per cache_window
  // written, a wait and a posix_fadvise; direct, the buffer rounded up to
  // the alignment.
  // Failure: no_cache, a writeback error met while dropping poisons the
  // writer like a failed sync. direct, a filesystem that refuses O_DIRECT, a
  // FIFO, socket or terminal, or writer(file&&) make the constructor throw
  // EINVAL saying so.
  caching_mode caching = caching_mode::normal;

  // The path holds either its complete old content (nothing, if it did not
  // exist) or the complete new one, whatever happens, power loss included:
  // writing goes to a temporary in the same directory, which close() fsyncs,
  // renames over the path and follows with an fsync of the directory,
  // whatever `durability` says. A replaced file keeps its owner, group,
  // mode, ACL and attributes; links are followed only where their owner may
  // lead.
  // Default: false.
  // Cost: about eight system calls at construction for a new file, eight
  // more to replace one; at close(), fsync, rename and the directory's fsync.
  // Failure: the constructor runs every permission check, and a failure
  // there leaves nothing created. Only for writer(path) on a regular file:
  // writer(file&&), a FIFO, device, socket or directory throws EINVAL, a
  // file mounted over the path EBUSY. Destroyed without close(), or close() failing before the
  // rename, leaves the path untouched and removes the temporary.
  // Detail: docs/writer.md#atomic_replace
  // Measured: docs/performance.md#atomic_replace-what-keeping-the-old-files-metadata-costs
  bool atomic_replace = false;

  // While one buffer is being written, the next one fills, so that
  // formatting overlaps the I/O: through io_uring where it can serve, else
  // on a background thread (write_behind_engine() says which).
  // Default: false.
  // Cost: up to write_behind_depth buffers being written plus the one
  // filling, allocated at construction, and a ring or a thread; plus
  // write_behind_depth + 2 buffers' worth of address space, touched only to
  // take back the bytes of a failed write without allocating. flush(), sync(), close(), a write()
  // that skips the buffer and a move first wait for every buffer handed over.
  // Failure: thrown by the next call that hands over a buffer or waits, with
  // every write error's contract (the file holds exactly the bytes before
  // tell() - buffered()), and sticky. Detail: docs/writer.md#write_behind
  // Measured: docs/performance.md#write_behind-where-it-pays
  bool write_behind = false;

  // buffer_size's default: the fastest size, or within noise of it, on
  // every scenario of sluice-bench --buffer-size.
  // Measured: docs/performance.md#the-buffer-size-256-kib
  static constexpr std::size_t default_buffer_size = 256 * 1024;
  // buffer_size's default with caching_mode::direct, where the size of each
  // write is what the device sees.
  // Measured: docs/performance.md#direct-a-1-mib-buffer-by-default
  static constexpr std::size_t default_direct_buffer_size = 1024 * 1024;

  // caching_mode::no_cache keeps between one and two windows of the file
  // cached.
  static constexpr std::uint64_t cache_window = 16 * 1024 * 1024;

  // write_behind: buffers being written at most (queued for the thread, or
  // in flight through io_uring).
  // Measured: docs/performance.md#write_behind-through-io_uring
  static constexpr std::size_t write_behind_depth = 2;
};

class ostream;

namespace detail {
class flush_strategy;
class foreground_flush;
struct replacement;

// Frees a buffer from std::aligned_alloc that starts `offset` bytes into
// its block (aligned by hand; 0 for one that starts at the block).
struct free_deleter {
  std::size_t offset = 0;
  void operator()(char* buffer) const noexcept;
};

// A writer's file, its buffer and its sticky error: what the writer's flush
// strategy (src/writer/flush_strategy.hpp) works on. [begin_, pos_) holds the
// bytes accepted and not yet handed to the OS, which go to target_ at
// target_.position(); [pos_, end_) is room for more.
struct buffered_file {
  std::size_t held() const noexcept { return static_cast<std::size_t>(pos_ - begin_); }
  // Makes `error` the sticky error and leaves no room, so that every later
  // write takes the slow path and throws it.
  void fail(std::exception_ptr error) noexcept;
  // Throws the sticky error to the caller.
  [[noreturn]] void rethrow_sticky();
  // Runs `step`; whatever it throws becomes the sticky error (defined in
  // src/writer/flush_strategy.hpp).
  template <class Step>
  void sticking(Step&& step);

  file target_;
  std::unique_ptr<char[], free_deleter> storage_;
  std::size_t capacity_ = 0;
  std::exception_ptr error_;  // the sticky error, null if none
  char* begin_ = nullptr;
  char* pos_ = nullptr;
  char* end_ = nullptr;  // == pos_ once an error sticks, so every write goes slow
  // error_ reached the caller (thrown out of a call of the writer), so the
  // destructor need not report it. An ostream whose stream only set badbit
  // clears it.
  bool error_thrown_ = false;
};

// `char`, const or not: what a pointer writer::write refuses points to.
template <class C>
concept plain_char = std::is_same_v<char, std::remove_cv_t<C>>;

// What writer::write(std::span) takes the bytes of.
template <class T>
concept trivially_copyable = std::is_trivially_copyable_v<T>;

// What put_le and put_be write: integers of every width (not bool), float
// and double (as their IEEE 754 bits).
template <class T>
concept fixed_width = (std::integral<T> && !std::same_as<T, bool>) || std::same_as<T, float> ||
                      std::same_as<T, double>;

// The unsigned integer of `T`'s size, holding its bits.
template <fixed_width T>
using bits_of = std::conditional_t<
    sizeof(T) == 1, std::uint8_t,
    std::conditional_t<sizeof(T) == 2, std::uint16_t,
                       std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;

// `bits` with its bytes in reverse order. Spelt as shifts, which GCC and
// Clang make one bswap (or rol) instruction; a loop here was left a loop.
template <class U, std::size_t... i>
constexpr U reversed(U bits, std::index_sequence<i...>) noexcept {
  return static_cast<U>(((((bits >> (8 * i)) & U{0xff}) << (8 * (sizeof(U) - 1 - i))) | ...));
}

// `bits` with its bytes in the order `order` asks, as they lie in memory.
template <std::endian order, class U>
constexpr U in_order(U bits) noexcept {
  static_assert(std::endian::native == std::endian::little ||
                std::endian::native == std::endian::big);
  if constexpr (order == std::endian::native || sizeof(U) == 1) {
    return bits;
  } else {
    return reversed(bits, std::make_index_sequence<sizeof(U)>{});
  }
}

}  // namespace detail

// The file and the buffer come first, in the order the inline calls below
// expect them (a private base: nothing of it is part of the API).
class writer : private detail::buffered_file {
 public:
  // Creates or truncates `path` (open_mode::truncate). Throws std::system_error
  // before any data is accepted if it cannot be opened (an empty path:
  // ENOENT). The buffer is allocated first: a std::bad_alloc leaves the path
  // as it was (with caching_mode::direct on a filesystem whose alignment is
  // larger than a page, a new file may be left empty). write_behind and
  // caching_mode::direct, whose engines allocate once the file is open,
  // open an existing file without O_TRUNC and empty it (fstat, ftruncate)
  // once every allocation has succeeded.
  explicit writer(const std::filesystem::path& path, writer_options options = {});
  // Writes through an already open file (append mode, say), from its
  // position(); file::borrow(STDOUT_FILENO, "standard output") for standard
  // output, which close() then leaves open. durability_mode::all_on_close syncs
  // the file but not its directory: only the caller knows whether the file
  // was just created. Over a file with content past its position(), a
  // failure cuts nothing below its old size: the bytes after the failure's
  // offset that landed inside it (write-behind on io_uring writes several at
  // once) stay there, beside the old content, and are also still buffered.
  explicit writer(file&& target, writer_options options = {});
  writer(writer&& other) noexcept;
  writer& operator=(writer&& other) noexcept;
  writer(const writer&) = delete;
  writer& operator=(const writer&) = delete;
  // Flushes and closes; never throws (see the error contract above).
  ~writer();

  // Writes one byte. A char, a signed or unsigned char (std::uint8_t) or a
  // std::byte; any other type (an int, an unsigned) does not compile, so that
  // a value is never cut to a byte unseen: say static_cast<char>(v), or
  // put_le(v) for all its bytes.
  // Cost: a bounds check and a store; a full buffer goes to the OS on the way.
  // Failure: as write() below.
  void put(char c) {
    if (pos_ == end_) [[unlikely]]
      return put_slow(c);
    *pos_++ = c;
  }
  void put(signed char c) { put(static_cast<char>(c)); }
  void put(unsigned char c) { put(static_cast<char>(c)); }
  void put(std::byte b) { put(static_cast<char>(b)); }
  template <class T>
  void put(T) = delete;

  // Copies `text` after the bytes buffered; a full buffer goes to the OS
  // (or the write-behind engine) on the way. Nothing here allocates, but a
  // buffer handed off to a write-behind engine (write_behind, or
  // caching_mode::direct) once reserve() has grown it past the engine's
  // buffers: a std::bad_alloc then does not stick, and the call has
  // accepted exactly the bytes tell() advanced by (retry the rest, not the
  // whole text).
  void write(std::string_view text) {
    if (text.size() > static_cast<std::size_t>(end_ - pos_)) [[unlikely]]
      return write_slow(text.data(), text.size());
    // memcpy must never see a null pointer, which an empty view (or the
    // buffer of a closed writer) may hold, even to copy nothing.
    if (!text.empty()) std::memcpy(pos_, text.data(), text.size());
    pos_ += text.size();
  }

  // A bare `const char*` (or `char*`) does not compile: it would be written
  // up to its first NUL, which a pointer to binary data is not meant to be
  // (docs/writer.md#binary-output). Say write(data, size) for bytes, or
  // write(std::string_view(text)) for a C string.
  template <detail::plain_char C>
  void write(C* const& text) = delete;
  // Nor does a `char` array that is not const: a buffer, whose bytes past a
  // NUL would be lost the same way. Say write(buffer, size), or
  // write(std::string_view(buffer)) for the C string in it.
  template <std::size_t N>
  void write(char (&buffer)[N]) = delete;
  // A string literal, or any const `char` array: its characters up to the
  // first NUL, and never past its end (an array without a NUL is written
  // whole). Cost: the search for the NUL, which the compiler does for a
  // literal; then as write(std::string_view).
  template <std::size_t N>
  void write(const char (&text)[N]) {
    const char* nul = std::char_traits<char>::find(text, N, '\0');
    write(std::string_view(text, nul ? static_cast<std::size_t>(nul - text) : N));
  }

  // Binary output: `size` bytes from `data`, as fwrite(data, 1, size, f).
  // Cost and failure: as write(std::string_view).
  void write(const void* data, std::size_t size) {
    write(std::string_view(static_cast<const char*>(data), size));
  }
  void write(std::span<const std::byte> bytes) { write(bytes.data(), bytes.size()); }
  // The bytes of `items`, of any trivially copyable type, in host byte order
  // (put_le / put_be below for a fixed order), padding included.
  // Cost and failure: as write(std::string_view).
  template <detail::trivially_copyable T, std::size_t N>
  void write(std::span<T, N> items) {
    write(items.data(), items.size_bytes());
  }

  // `value`'s bytes, least significant first (put_le) or most significant
  // first (put_be), whatever the host's order: any integer but bool, or a
  // float or double as its IEEE 754 bits (NaN payloads and -0.0 included).
  // put_le<std::uint16_t>(n) writes a 16-bit field (n is converted first, as
  // for any argument).
  // Cost: inline, a bounds check and one store of sizeof(T) bytes (with a
  // byte swap where the order is not the host's): no more than as many
  // put()s. Measured: docs/performance.md#binary-output-put_le-at-the-hand-buffers-speed
  // Failure: as write() above, which a value that does not fit in the
  // buffer's room goes through: its bytes are those of a write() of them.
  template <detail::fixed_width T>
  void put_le(T value) {
    put_bits(detail::in_order<std::endian::little>(std::bit_cast<detail::bits_of<T>>(value)));
  }
  template <detail::fixed_width T>
  void put_be(T value) {
    put_bits(detail::in_order<std::endian::big>(std::bit_cast<detail::bits_of<T>>(value)));
  }

  // Decimal, like std::to_chars.
  template <detail::text_integer T>
  void print(T value) {
    print_chars(value, std::numeric_limits<T>::digits10 + 2);
  }

  // Shortest text that reads back to the same value (std::to_chars); "inf",
  // "-inf", "nan", "-nan" for the special values.
  void print(double value);
  void print(float value);

  // Formatting beyond the defaults (<sluice/format.hpp> has the formats and
  // examples). Each writes straight into the buffer, like print(value).
  void print(bool value);  // "true" or "false"
  void print(char value);  // the character itself, as put(value)
  // In format.base, padded as format.padded says, e.g. print(n, sluice::hex).
  template <detail::text_integer T>
  void print(T value, const int_format& format) {
    detail::check_base(format);
    auto room = reserve(std::max(detail::int_room<T>(format), format.padded.width));
    commit(detail::format_integer(room.data(), value, format));
  }
  // Shortest, fixed, scientific or general, e.g. print(x, sluice::fixed(3)).
  void print(double value, const float_format& format);
  void print(float value, const float_format& format);
  // `text` padded to pad.width, e.g. print(name, sluice::pad(10)). The text is
  // copied as write() does (a long one is never cut).
  void print(std::string_view text, const padding& pad);

  // A writable span of at least `n` bytes inside the buffer, flushing first if
  // needed; when n exceeds the buffer's size the buffer is replaced by one of
  // n bytes, kept until close (buffer_size() reports it). Nothing is written until
  // commit(k) accepts the first k bytes (k <= the span's size). std::bad_alloc
  // for an n no buffer can hold; the writer then goes on with the buffer it had.
  std::span<char> reserve(std::size_t n) {
    if (n > static_cast<std::size_t>(end_ - pos_)) [[unlikely]]
      make_room(n);
    return {pos_, static_cast<std::size_t>(end_ - pos_)};
  }
  void commit(std::size_t k) noexcept { pos_ += k; }

  // Bytes accepted so far (written or buffered), counting from the position
  // the file had when the writer took it (from 0 on a pipe, socket,
  // terminal or borrowed descriptor). O(1), no system call.
  std::uint64_t tell() const noexcept { return target_.position() + (pos_ - begin_); }
  // Bytes accepted but not yet handed to the OS.
  std::size_t buffered() const noexcept { return static_cast<std::size_t>(pos_ - begin_); }
  std::size_t buffer_size() const noexcept { return capacity_; }
  // Payload size from which a write() that does not fit skips the buffer.
  // Twice the buffer: below it, copying measured as fast or faster (see
  // docs/performance.md); from it up, the copy saved is pure gain. Never
  // with caching_mode::direct, whose transfers must come from the aligned buffer.
  std::size_t gather_threshold() const noexcept;

  void flush();  // hands every buffered byte to the OS
  void sync();   // flush, then fdatasync: durable on return
  // Flushes, gives back an unused reservation (ftruncate to the size), makes
  // the file as durable as options.durability asks, closes it, then syncs
  // the directory if asked. Throws the first error, sticky or new: after a
  // failure, that failure as it was thrown (the same write_error, with its
  // offset() and bytes_written()), as file::close() and journal::close() do.
  // The writer is closed afterwards whatever happened; calling close() again
  // throws the same error (after a successful close it does nothing).
  void close();

  // Whether options.preallocate reserved space: false if none was asked for
  // or the filesystem cannot preallocate.
  bool preallocated() const noexcept { return modes_.reserved_end != 0; }

  // What writes the buffers handed over with options.write_behind (or by
  // caching_mode::direct, which keeps writes in flight where io_uring serves):
  // none without them, and once a background failure was thrown.
  sluice::write_behind_engine write_behind_engine() const noexcept;

  bool is_open() const noexcept { return target_.is_open(); }
  const std::string& path() const noexcept { return target_.path(); }

 private:
  // std::to_chars straight into the buffer; `max_size` bounds its output.
  template <class T>
  void print_chars(T value, std::size_t max_size) {
    auto room = reserve(max_size);
    commit(static_cast<std::size_t>(
        std::to_chars(room.data(), room.data() + room.size(), value).ptr - room.data()));
  }
  // The bytes of `bits` as they lie in memory. The slow path takes them by
  // value, so that they need not be stored anywhere but in the buffer.
  template <class U>
  void put_bits(U bits) {
    if (static_cast<std::size_t>(end_ - pos_) < sizeof bits) [[unlikely]]
      return put_bits_slow(bits, sizeof bits);
    std::memcpy(pos_, &bits, sizeof bits);
    pos_ += sizeof bits;
  }
  bool open_target(const std::filesystem::path& path, const writer_options& options);
  void open_replacement(const std::filesystem::path& path, bool direct);
  bool open_synced(const std::filesystem::path& path, bool direct, bool keep);
  void empty_old_content();
  void start(const writer_options& options, std::unique_ptr<detail::foreground_flush> way,
             bool old_content = false);
  void check_syncable();
  void reserve_space(std::uint64_t length);
  void take(writer& other) noexcept;
  std::exception_ptr finish() noexcept;
  void finish_file();
  void give_up() noexcept;
  std::exception_ptr close_file(bool then_sync_directory) noexcept;
  void sync_data_or_fail();
  void put_slow(char c);
  void write_slow(const char* data, std::size_t size);
  // put_bits of a `size`-byte unsigned `bits`, widened, when it does not fit.
  void put_bits_slow(std::uint64_t bits, std::size_t size);
  void make_room(std::size_t n);
  void report_after_failure(std::exception_ptr closing) const noexcept;
  void check_usable();
  void destroy() noexcept;

  friend class ostream;

  // What the options made of this writer; a moved-from writer has the defaults.
  struct modes {
    durability_mode durability = durability_mode::none;
    // options.preallocate reserved space up to here; 0 if it reserved none.
    std::uint64_t reserved_end = 0;
    // all_on_close, and this writer created the file: its directory, open
    // from before the file was created until the fsync at close (a later
    // chdir or rename changes nothing).
    file directory;
    // atomic_replace: target_ is a temporary, and this is what puts it in
    // the path's place at close.
    std::unique_ptr<detail::replacement> replacing;
  };
  modes modes_;
  // How the buffer reaches the OS (src/writer/flush_strategy.hpp), chosen
  // once at open; null once closed, or moved from. Last, so that it ends
  // (a write-behind engine waits for its writes) before anything it writes
  // with.
  std::unique_ptr<detail::flush_strategy> flush_;
};

}  // namespace sluice
