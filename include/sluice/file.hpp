// sluice/file.hpp - sluice::file, the one owner of a file descriptor.
//
// A file is move-only and closes its descriptor when destroyed (unless it
// was borrowed, see borrow()). Every
// operation either completes fully or throws (see <sluice/error.hpp>):
// interrupted calls (EINTR) are restarted and partial transfers continued, so
// a write returns only once every byte reached the OS. Descriptors are always
// opened with O_CLOEXEC.
//
// Cost: each call is one system call, except that a transfer the kernel cuts
// short costs one more call per piece, and write_gather() and read_gather()
// one pwritev or preadv per IOV_MAX buffers. The first write or read on a
// stream costs one more call: the pwritev or preadv refused with ESPIPE.
//
// Durability: write*() hands bytes to the OS, which survives the death of the
// process but not a power loss; sync_data()/sync_all() make them durable. A
// failed sync poisons the file, because Linux may have dropped the unwritten
// pages and a retry would "succeed" without them: every later operation is
// refused without a system call, with the sync's errno and a message naming
// both (sluice: write 'out.bin' refused after an earlier failure: fdatasync
// 'out.bin': Input/output error), and close() throws the sync's error
// itself. A failed write or read does not poison: the file stays usable.
//
// Pipes, FIFOs, sockets and terminals (streams) cannot seek: the first write
// or read on one is refused with ESPIPE, after which the file writes with
// writev and reads with readv at the descriptor's own offset (sequential())
// and position() counts the bytes written. A write that finds the reader
// gone fails with EPIPE like any other (the process's SIGPIPE disposition
// applies first: by default the signal ends the process, as it ends
// `prog | head`). A non-blocking descriptor that is full (or, when reading,
// empty) is waited for (poll), not reported as EAGAIN unless poll fails.
// Resizing, preallocating and syncing a stream fail (ESPIPE, EINVAL, ENODEV);
// start_writeback() and drop_cached() do nothing on one.
//
// Example:
//   auto f = sluice::file::open("out.bin", {.mode = sluice::open_mode::create_new});
//   f.write(std::as_bytes(std::span(header)));
//   f.sync_data();
//   f.close();
//
//   auto out = sluice::file::borrow(STDOUT_FILENO, "standard output");
//   out.write(bytes);  // a pipe, a terminal or a file: wherever stdout goes
//   out.close();       // fd 1 stays open
//
//   auto in = sluice::file::borrow(STDIN_FILENO, "standard input");
//   std::size_t got = in.read_at(buffer, done);  // the next bytes; fewer at the end
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <span>
#include <string>
#include <system_error>

#ifndef _WIN32
struct iovec;
#endif

namespace sluice {
namespace detail {
enum class extent;  // src/os/transfer.hpp
#ifdef _WIN32
struct io_piece;  // src/os/handle.hpp
#endif
}  // namespace detail

// What the OS names an open file by: a file descriptor on POSIX systems, a
// HANDLE on Windows.
#ifdef _WIN32
using native_handle_type = void*;
#else
using native_handle_type = int;
#endif

// What file::open does with the path (file_options::mode).
enum class open_mode {
  // Create the file if missing, else empty it; write-only. The default.
  truncate,
  // Empty an existing file; fail with ENOENT if it is missing. Write-only.
  truncate_existing,
  // Create the file, for reading and writing; fail with EEXIST if the path
  // exists.
  create_new,
  // Create the file if missing; write-only, and every write goes to the end
  // (O_APPEND).
  append,
  // Read and write an existing file; fail with ENOENT if it is missing.
  open_existing,
  // Read an existing file.
  read_only,
};

// What file::preallocate does to the file's size.
enum class preallocate_mode {
  extend_size,  // the size grows to cover the reserved range
  keep_size,    // the size stays; the blocks wait past the end (FALLOC_FL_KEEP_SIZE)
};

// How file::open opens a path: one openat whatever the options; the errors
// it throws are listed at file::open.
struct file_options {
  // Whether the path is created, emptied, appended to or opened as it is, and
  // for reading, writing or both (open_mode above).
  // Default: open_mode::truncate.
  // Cost: append, one fstat more, so that position() starts at the end.
  // Failure: ENOENT or EEXIST where the mode asks for a file that is, or is
  // not, there.
  open_mode mode = open_mode::truncate;

  // Permission bits of a file this call creates, before the umask.
  // Default: 0666.
  mode_t permissions = 0666;

  // O_DIRECT: transfers bypass the page cache, and must then be aligned to
  // direct_io_alignment() in memory, offset and length.
  // Default: false.
  // Failure: a filesystem that refuses O_DIRECT fails the open with EINVAL,
  // and the message says so; an unaligned transfer fails with EINVAL.
  bool direct = false;
};

// file_options's former name, kept so that existing code compiles.
using open_options = file_options;

class file {
 public:
  // Opens `path`. Throws std::system_error naming the path: a missing
  // directory (ENOENT), no permission (EACCES), a directory (EISDIR)...
  static file open(const std::filesystem::path& path, file_options options = {});

  // Adopts an open descriptor, which close() and the destructor close;
  // `path` is used in error messages only. No system call.
  file(native_handle_type fd, std::string path) noexcept;

  // Uses an open descriptor the caller keeps owning, such as STDOUT_FILENO
  // or STDIN_FILENO: close() and the destructor leave it open (close() still
  // reports a poisoning sync error). Writes and reads are sequential(): they
  // go where the descriptor's offset is and move it, with writev and readv,
  // so that output interleaves with whatever else writes through the same
  // open file (a shell's `{ prog; echo end; } > out`) and input starts where
  // an earlier reader of it stopped; position() counts from 0 the bytes
  // written through this file. `path` names it in error messages. No system
  // call.
  //
  // On Windows, `fd` is a HANDLE (GetStdHandle(STD_OUTPUT_HANDLE)), and a
  // sequential() file reads and writes with ReadFile and WriteFile without
  // an offset.
  static file borrow(native_handle_type fd, std::string path) noexcept;
  file() noexcept = default;  // not open
  file(file&& other) noexcept;
  file& operator=(file&& other) noexcept;
  file(const file&) = delete;
  file& operator=(const file&) = delete;
  // Closes the descriptor; a failure goes to the error handler:
  // "sluice: close '<path>' in its destructor: close '<path>': <strerror>".
  // A poisoning sync failure was thrown already: not reported again.
  ~file();

  // Writes all of `bytes` at `offset`; the position is not used or moved.
  // Throws write_error (its offset() is the first byte not written). On a
  // sequential() file the bytes follow those written before and `offset`
  // only counts, for error messages.
  void write_at(std::span<const std::byte> bytes, std::uint64_t offset);

  // Writes all of `bytes` at position() and advances it. In append mode the
  // kernel puts the bytes at the end of the file whatever position() says.
  void write(std::span<const std::byte> bytes);

  // Writes the buffers, in order, at position() as if one buffer, and advances
  // it: one pwritev per IOV_MAX buffers, no copy. Throws write_error.
  void write_gather(std::span<const std::span<const std::byte>> buffers);

  // Reads into `bytes` from `offset`. Returns the count read: all of `bytes`
  // unless the file ends first (a short read is continued, so fewer bytes
  // mean the end). Throws std::system_error naming the offset of the first
  // byte not read. On a seekable file it changes nothing in the file object,
  // so several threads may read_at() one file at once (preadv). On a
  // sequential() file (or a stream found by this call's ESPIPE) it reads the
  // next bytes at the descriptor's own offset (readv), one thread at a time,
  // and `offset` only counts, for error messages: pass the bytes read so far.
  // A pipe's end of file is its last writer closing it.
  std::size_t read_at(std::span<std::byte> bytes, std::uint64_t offset);

  // Reads into `bytes` from `offset` what one read gives: what a pipe,
  // socket or terminal has now (waiting only while it has nothing), up to
  // bytes.size() of a regular file. Returns the count read, 0 only at the
  // end of the file (a pipe's last writer closed it, or `bytes` is empty).
  // Interrupted calls are restarted; errors and offsets as read_at().
  // For a reader of a stream that must act on each piece as it arrives
  // (a protocol, a line typed at a terminal) where read_at() would wait
  // for the whole buffer.
  std::size_t read_some_at(std::span<std::byte> bytes, std::uint64_t offset);

  // Reads into the buffers, in order, from `offset` as if one buffer
  // (scatter): one preadv per IOV_MAX buffers, no copy. Returns the count
  // read: every buffer's bytes unless the file ends first (a short read is
  // continued, so fewer bytes mean the end, possibly in the middle of a
  // buffer; the buffers past it are left as they were). Empty buffers are
  // skipped; no buffers, or only empty ones, read nothing and make no
  // system call. Throws std::system_error naming the offset of the first
  // byte not read; the buffers before it hold what was read. Like read_at():
  // it changes nothing in the file object on a seekable file, and on a
  // sequential() file reads the next bytes at the descriptor's own offset
  // (readv), `offset` only counting, for error messages.
  std::size_t read_gather(std::span<const std::span<std::byte>> buffers, std::uint64_t offset);

  // The alignment O_DIRECT transfers on this file need, in bytes, for
  // memory, offsets and lengths alike: statx's STATX_DIOALIGN where the
  // kernel reports it, else the filesystem's block size (st_blksize), which
  // every device's logical block size divides. Throws EINVAL if the
  // filesystem reports that it cannot do direct I/O on this file, or if it
  // is a stream.
  std::size_t direct_io_alignment() const;

  // Moves position() to `offset`. No system call.
  void seek(std::uint64_t offset) noexcept { position_ = offset; }

  // Where write() and write_gather() go next: 0 after open, the file's size
  // in append mode; on a sequential() file, the bytes written so far. O(1),
  // no system call.
  std::uint64_t position() const noexcept { return position_; }

  // Whether writes and reads go to the descriptor's own offset (writev,
  // readv) rather than at an offset (pwritev, preadv): true for a borrowed
  // descriptor and, from its first write or read or is_stream() on, for a
  // stream. O(1), no system call.
  bool sequential() const noexcept { return sequential_; }

  // Whether the descriptor is a pipe, FIFO, socket or character device
  // (a terminal, /dev/null): one fstat the first time, unless a write or
  // read already found out (ESPIPE); cached. Throws like size().
  bool is_stream() const;

  std::uint64_t size() const;           // fstat
  void resize(std::uint64_t new_size);  // ftruncate; the position is not moved

  // Reserves disk space for [offset, offset + length) with fallocate. With
  // extend_size the size grows to cover it (reads there see zeros); with
  // keep_size it does not, and blocks reserved past the end are released by
  // resize(size()). A filesystem without fallocate throws EOPNOTSUPP with
  // "not supported" in the message: sluice never emulates it slowly.
  void preallocate(std::uint64_t offset, std::uint64_t length,
                   preallocate_mode mode = preallocate_mode::extend_size);

  // Number of extents the file occupies on disk (FIEMAP); EOPNOTSUPP where
  // the filesystem cannot tell (tmpfs, for one). Cost: it first writes back
  // the file's dirty pages (FIEMAP_FLAG_SYNC) so that delayed allocation
  // cannot hide extents, which can take as long as sync_data().
  std::uint64_t extent_count() const;

  void sync_data();  // fdatasync: the data and the size are durable
  void sync_all();   // fsync: also every other piece of metadata

  // Starts writing [offset, offset + length) back to the disk and returns
  // without waiting (sync_file_range). Makes nothing durable: no metadata, no
  // device cache flush. Does nothing on a stream, which has no page cache.
  void start_writeback(std::uint64_t offset, std::uint64_t length);
  // Waits until [offset, offset + length) is written back, then drops it from
  // the page cache (sync_file_range, then posix_fadvise DONTNEED); length 0
  // means to the end of the file. Costs the
  // wait for the disk. A writeback error (EIO, ENOSPC) poisons the file like
  // a failed sync: the kernel reports it once, so a later sync could not.
  // Does nothing on a stream.
  void drop_cached(std::uint64_t offset, std::uint64_t length);

  bool is_open() const noexcept { return fd_ != none(); }
  native_handle_type native_handle() const noexcept { return fd_; }
  const std::string& path() const noexcept { return path_; }

  // Gives up ownership: returns the descriptor (-1 if not open; on Windows
  // the HANDLE, INVALID_HANDLE_VALUE if not open), leaves this file not open
  // and does not close anything.
  native_handle_type release() noexcept;

  // Closes the descriptor and reports any error. After a poisoning sync
  // failure it throws that failure again (the same std::system_error the
  // sync threw), as writer::close() and journal::close() do; a close(2)
  // that fails too then goes to the error handler (<sluice/error.hpp>).
  // The descriptor is released whatever happens, never closed twice; a
  // borrowed one is let go without closing it. A later close() does
  // nothing.
  void close();

 private:
  enum class kind : unsigned char { unknown, seekable, stream };
#ifdef _WIN32
  using io_piece = detail::io_piece;
  // INVALID_HANDLE_VALUE: not open.
  static native_handle_type none() noexcept {
    return reinterpret_cast<native_handle_type>(static_cast<std::intptr_t>(-1));
  }
#else
  using io_piece = ::iovec;
  static constexpr native_handle_type none() noexcept { return -1; }
#endif

  void check_usable(const char* operation) const;
  void poison(int errno_value, const char* operation);
  void learn_sequential(bool sequential) noexcept;
  std::uint64_t write_all(io_piece* iov, std::size_t count, std::uint64_t offset);
  std::size_t read_iov(io_piece* iov, std::size_t count, std::uint64_t offset,
                       detail::extent until);
  bool no_page_cache(int errno_value) noexcept;
  void check_direct_io_possible(bool stream) const;

  // The writer's inline calls read position_ at its offset: the members
  // are laid out so that it and the size stay as they are.
  native_handle_type fd_ = none();
  bool owned_ = true;  // close() closes the descriptor
  // What the descriptor turned out to be, learnt by the queries too: a
  // cache of facts about it, not state a caller changes.
  mutable bool sequential_ = false;  // writes with writev, see sequential()
  mutable kind kind_ = kind::unknown;
  std::uint64_t position_ = 0;
  std::exception_ptr failure_;  // the sync that poisoned the file, null if none
  std::string path_;
};

// Makes the entries of directory `path` durable (fsync of the directory): do
// it after creating or renaming a file inside it. Throws std::system_error.
void sync_directory(const std::filesystem::path& path);

}  // namespace sluice
