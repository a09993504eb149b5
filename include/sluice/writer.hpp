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
#pragma once

#include <algorithm>
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

#include "sluice/file.hpp"
#include "sluice/format.hpp"

namespace sluice {

// How durable the bytes are when close() returns.
enum class durability_mode {
  // The bytes reach the OS at flush() and close(): they survive a crash of
  // the process, not a power loss. No sync.
  none,
  // close() returns after fdatasync: the data and the file's size are durable.
  // So that close() does not wait for the whole file to reach the disk, the
  // writeback of each MiB written starts as soon as it is written
  // (sync_file_range, which waits for nothing; caching_mode::normal only). A
  // failure to start it (EIO) is thrown as a std::system_error naming
  // sync_file_range, and sticks.
  data_on_close,
  // close() returns after fsync and, when the writer created the file, an
  // fsync of its directory: the file, its metadata and its name are durable.
  // The path's final symbolic links are followed by the rules of
  // writer_options::atomic_replace (a link is followed only if this user,
  // root or the owner of what it leads to owns it, and not out of /tmp),
  // but for a /proc link (/dev/stdout), which open(2) follows to the
  // descriptor's file; the file is then created (O_EXCL) in the directory
  // they lead to, which is the one synced, through a dangling link too. That
  // directory is opened (for reading) before the file is created: one the
  // process may write but not read (mode 0300) makes the constructor throw
  // EACCES naming it, with nothing created; an existing file there is
  // written, needing no directory sync (opened without O_CREAT, so that a
  // file removed meanwhile is created again, and synced; EAGAIN if it keeps
  // appearing and disappearing, after 10 tries). Writeback starts early as
  // for data_on_close.
  all_on_close,
  // Every write to the OS (a full buffer, a gathered payload, flush(),
  // close()) is followed by fdatasync: what it handed over is durable when
  // the call returns, like O_DSYNC. Costs a device flush per buffer.
  write_through,
  // A pipe, socket or terminal cannot be synced: every level but none makes
  // the writer's constructor throw EINVAL naming it (found with one fstat).
};
// durability_mode's former name, kept so that existing code compiles.
using durability = durability_mode;

// What the writer does with the page cache.
enum class caching_mode {
  // The kernel keeps what was written cached, as for any write.
  normal,
  // Writing a file larger than memory does not flood the page cache: each
  // write's writeback starts at once (sync_file_range), and what lies more
  // than cache_window bytes behind the end is waited for and dropped
  // (POSIX_FADV_DONTNEED); close() drops the rest. At most about twice the
  // window stays cached. Not a durability mode: nothing is fsynced. Does
  // nothing on a pipe, socket or terminal, which has no page cache.
  no_cache,
  // O_DIRECT: the buffer goes to the device without passing through the page
  // cache. Every transfer is aligned as file::direct_io_alignment() says: the
  // buffer size is rounded up to it, write()s are always copied (no gather),
  // and a partial last block is written padded with zeros, kept buffered and
  // written again with what follows, so until close() the file may end with
  // up to one block of zeros; close() truncates it to its exact size. Only
  // for writers that open the path. A filesystem that refuses O_DIRECT, or a
  // path naming a FIFO, socket or terminal, makes the constructor throw
  // EINVAL saying so. An existing file is opened without O_TRUNC and emptied
  // (ftruncate) once the buffer fits the alignment, which is known only
  // then: a buffer that cannot be allocated leaves it as it was (a new file
  // is left empty).
  // Where write_behind's io_uring engine can serve (see write_behind), a
  // direct writer uses it even without write_behind, as it measured faster
  // (docs/performance.md): the next buffer fills while two writes are in
  // flight, with write_behind's costs (a ring, three buffers) and contract
  // (a failure is thrown by the next call that hands over a buffer or
  // waits), and write_behind_engine() says io_uring. Elsewhere each buffer
  // is written on the caller's thread.
  direct,
};
// caching_mode's former name, kept so that existing code compiles.
using caching = caching_mode;

// What writes a write_behind writer's buffers (writer::write_behind_engine()).
enum class write_behind_engine {
  none,      // write_behind is off (and caching_mode::direct has no ring), or a failure ended it
  thread,    // a background thread, one write at a time
  io_uring,  // several io_uring writes in flight, reaped on the caller's thread
};

struct writer_options {
  // Bytes buffered before a write to the OS. 0 means default_buffer_size
  // (default_direct_buffer_size with caching_mode::direct);
  // any other size from 1 byte up is honoured.
  std::size_t buffer_size = 0;

  // Bytes to reserve on disk up front, from where writing starts (fallocate,
  // keeping the size): the file is laid out in few extents and growing it
  // costs no block allocation. close() gives back what was not written, so
  // the size is always exactly the bytes written; writing past the
  // reservation works as usual. 0 (the default): no reservation. On a
  // filesystem without fallocate, a pipe, socket or terminal, or a borrowed
  // descriptor (file::borrow), the writer goes on without one and
  // preallocated() says so; any other failure (ENOSPC) throws from the
  // constructor, before any data is accepted.
  std::uint64_t preallocate = 0;

  // Default durability_mode::none. A failed sync poisons the writer: close()
  // throws it, and no retry is offered.
  durability_mode durability = durability_mode::none;

  // Default caching_mode::normal.
  caching_mode caching = caching_mode::normal;

  // The path always holds either its complete old content (or nothing, if it
  // did not exist) or the complete new one, whatever happens, power loss
  // included. Writing goes to a temporary file in the same directory (an
  // unnamed O_TMPFILE where the filesystem has it, else one named
  // ".<name>.sluice-tmp-<8 hex digits>", the name a killed process may leave
  // behind, with <name> cut to fit NAME_MAX; a named one also where
  // /proc/self/fd, which names an unnamed one, is missing); close() fsyncs
  // it, renames it over the path and fsyncs the directory, whatever
  // `durability` says; its writeback starts early as for
  // durability_mode::data_on_close. A writer destroyed without close(), or whose
  // close() fails before the rename, leaves the path untouched and removes
  // the temporary; a failure after the rename (the directory's fsync) says
  // that the new content is in place. Only for writers opened by path, and
  // only for a regular file: a FIFO, device, socket or directory throws
  // EINVAL, and a file mounted over the path (as containers mount
  // /etc/resolv.conf), which no rename can replace, EBUSY. Every error
  // names the path given, made absolute (the temporary or link concerned is
  // in the text).
  //
  // The directory is held open from the constructor on, and every step
  // goes through it (the temporary is created, named, renamed and synced in
  // it): a chdir(), or the directory renamed and another made at its path
  // before close(), changes nothing of where the new content goes, and the
  // directory synced is the one it went to.
  //
  // The constructor does, before accepting a byte, everything that could
  // fail for lack of permission, and a failure leaves nothing created:
  // - A symbolic link is followed, link after link (ELOOP after 40), each
  //   from its own directory, held open, and the file it points to is
  //   replaced: the link stays, as editors keep it (a dotfile linked into a
  //   repository changes in the repository); a dangling link's target is
  //   created; the temporary goes beside the file. A link is followed only
  //   if this user (effective uid), root, or the owner of what it leads to
  //   owns it (the file there, or, for a file to create, the directory it
  //   would go in): root writing a user's file never follows the user's link
  //   to root's own file (EACCES naming the link and both owners). Refused
  //   too: a link on /proc, which stands for an open descriptor, not a file
  //   (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: EINVAL; write to
  //   the descriptor instead, file::borrow(STDOUT_FILENO, ...)); a file in
  //   /proc (EINVAL); and, as the kernel's fs.protected_symlinks and
  //   fs.protected_regular would, a link in a sticky world-writable
  //   directory (/tmp) owned by neither this user nor the directory's owner,
  //   or an existing file in a sticky directory others may write owned by
  //   neither (EACCES: root must not follow, or hand its data to, what
  //   another user planted there).
  // - The directory is opened for reading and kept for the fsync at close:
  //   one the process may write but not read (mode 0300) throws EACCES
  //   naming it.
  // - Replacing a file, the new one gets, before any byte is written to it,
  //   the old one's owner and group, its extended attributes (its POSIX ACL
  //   among them), and its exact mode (07777: the umask does not apply, and
  //   an ACL the directory's default ACL would add is removed) but for the
  //   setuid and setgid bits; until then it is 0600, visible to its owner
  //   alone. The setuid/setgid bits and security.capability are given only
  //   after the last write, so that a half-written file is never a
  //   privileged program. All of it is taken from the one file resolved
  //   (held open, its attributes read through /proc/self/fd): a file renamed
  //   over the path meanwhile lends nothing; where /proc is missing they are
  //   read by path and the path checked afterwards (EAGAIN if it changed).
  //   Not copied: security.ima and security.evm, which vouch for the old
  //   content, not the new, and what the process cannot see (trusted.*,
  //   visible to root only). A process that may not give the file that
  //   owner or group (a user replacing another user's file in a directory
  //   both may write, or a file of a group the user is not in) gets EPERM
  //   saying so, and an attribute that cannot be read or set throws naming
  //   it (a 0200 file's user.* attributes cannot be read; a security.*
  //   attribute cannot be set but by root): a file is never replaced by one
  //   that its owner cannot read or that others can. Other hard links to
  //   the old file keep the old content.
  // - A new file gets 0666 minus the umask, and the directory's default
  //   ACL, as open(2) gives them.
  // - caching_mode::direct: O_DIRECT is set on the temporary once it exists
  //   (fcntl), so that a filesystem that refuses it throws EINVAL saying so.
  // Cost at construction: eight system calls for a new file (geteuid, the
  // directory and the name opened O_PATH, the directory opened for
  // reading, fstatfs, the temporary's open, a stat of /proc/self/fd, a
  // close), eight more replacing a file (fstat and statx of the old file,
  // geteuid, fstat, listxattr, fremovexattr, fchmod, a close), and a few
  // per link followed and per attribute copied. Default false.
  bool atomic_replace = false;

  // While one buffer is being written, the next one fills, so that
  // formatting overlaps the I/O. Memory: up to write_behind_depth buffers
  // being written plus the one filling; the caller waits when all are
  // taken. Plus write_behind_depth + 2 buffers' worth of address space,
  // touched only after a failed write, to take its unwritten bytes back
  // without allocating. A buffer that has no room left is handed over (with
  // caching_mode::direct, its whole blocks; the partial last one moves to the
  // next buffer). flush(), sync(), close() and a write() that skips the
  // buffer first wait for every handed-over buffer, then write on the
  // caller's thread; so does moving the writer.
  //
  // Two engines (write_behind_engine() says which one a writer has):
  // - io_uring, when sluice was built with liburing, the kernel lets the
  //   process open a ring, the file is a regular file, and nothing has to
  //   follow each write (not durability_mode::write_through, caching_mode::no_cache,
  //   nor a sync at close on the page cache, whose writeback starts after
  //   each write): write_behind_depth writes in flight at once, from
  //   buffers allocated and registered once (plain writes where the kernel
  //   refuses to pin them, e.g. past RLIMIT_MEMLOCK); completions are reaped
  //   on the caller's thread when it hands over a buffer and all are taken,
  //   and when it waits. No thread. Costs, at construction, a ring
  //   (io_uring_setup), write_behind_depth + 1 buffers and their
  //   registration. This is where caching_mode::direct gains: the device gets
  //   several O_DIRECT writes at once.
  // - otherwise, a background thread that writes the buffers one at a time,
  //   in order (on a pipe too). With write_through it syncs each buffer it
  //   writes (so a put() or write() that hands one over returns before it is
  //   durable; flush(), sync() and close() return after); with no_cache it
  //   starts and drops each buffer's writeback; with a sync at close it
  //   starts it. A ring that cannot be opened (no liburing, a seccomp policy
  //   or kernel that refuses io_uring) falls back to it silently.
  //
  // A failure is thrown by the next call that hands over a buffer or waits,
  // with the contract of every write error: the bytes not written are
  // buffered again, tell() - buffered() is the first byte missing from the
  // file, the file holds exactly the bytes before it, and the error sticks.
  // With io_uring, writes after the failed one may have landed: the engine
  // waits for every write in flight, then cuts the file back (ftruncate) to
  // the first missing byte, or to the size the file had when the writer
  // started if that is larger (a writer over an existing file). Default
  // false.
  bool write_behind = false;

  // Chosen with sluice-bench --buffer-size (docs/performance.md): 256 KiB was
  // fastest or within noise of it on every scenario; 32 KiB lost 40% on text,
  // 1 MiB a third on small pieces.
  static constexpr std::size_t default_buffer_size = 256 * 1024;
  // caching_mode::direct writes straight to the device, where the size of each
  // write counts: 256 KiB writes ran at 0.54-0.64x of O_DIRECT 1 MiB writes,
  // 1 MiB at 0.95x, 4 MiB at 0.89x (docs/performance.md).
  static constexpr std::size_t default_direct_buffer_size = 1024 * 1024;

  // caching_mode::no_cache keeps between one and two windows of the file cached.
  static constexpr std::uint64_t cache_window = 16 * 1024 * 1024;

  // write_behind: buffers being written at most (queued for the thread, or
  // in flight through io_uring).
  static constexpr std::size_t write_behind_depth = 2;
};

class ostream;

namespace detail {
class flush_strategy;
class foreground_flush;
struct replacement;

// Frees a buffer from std::aligned_alloc.
struct free_deleter {
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

template <class T>
concept print_integer = std::integral<T> && !std::same_as<T, bool> && !std::same_as<T, char> &&
                        !std::same_as<T, wchar_t> && !std::same_as<T, char8_t> &&
                        !std::same_as<T, char16_t> && !std::same_as<T, char32_t>;
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

  void put(char c) {
    if (pos_ == end_) [[unlikely]]
      return put_slow(c);
    *pos_++ = c;
  }

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

  void write(std::span<const std::byte> bytes) {
    write(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  }

  // Decimal, like std::to_chars.
  template <detail::print_integer T>
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
  template <detail::print_integer T>
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
  // the directory if asked. Throws the first error, sticky or new. The writer
  // is closed afterwards whatever happened; calling close() again throws the
  // same error (after a successful close it does nothing).
  void close();

  // Whether options.preallocate reserved space: false if none was asked for
  // or the filesystem cannot preallocate.
  bool preallocated() const noexcept { return modes_.preallocated; }

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
  void make_room(std::size_t n);
  void report_lost(const std::exception& e) const noexcept;
  void report_after_failure(std::exception_ptr closing) const noexcept;
  void check_usable();
  void destroy() noexcept;

  friend class ostream;

  // What the options made of this writer; a moved-from writer has the defaults.
  struct modes {
    durability_mode durability = durability_mode::none;
    bool preallocated = false;
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
