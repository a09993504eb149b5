// os/sys.hpp - the platform seam: the one place sluice reaches the OS.
//
// The seam is a table of the operations the library needs (open a file
// with options, write at an offset with gather, sync its data, preallocate,
// rename over, sync a directory, write asynchronously...), named for what
// sluice does with them, not for the call a backend makes. Every other file
// goes through sys().
//
// Backends. linux_sys.cpp is the Linux one: one system call per entry (two
// where an entry says so), the async entries in uring_sys.cpp. posix_sys.cpp
// is the portable POSIX one (macOS, the BSDs): posix_calls.hpp's table,
// which the Linux one starts from. win32_sys.cpp is the Windows one.
// docs/platforms.md says what each entry maps to on each. A backend
// for another OS is a file of its own that defines real_sys(), returning a
// constant table of all its entries, chosen at build time (CMakeLists.txt
// compiles one backend); sys() and set_sys() (sys.cpp) are common to all.
// The test fakes (tests/support/fake_sys, recording_sys) are tables too:
// set_sys() installs them to inject EINTR, short transfers, ENOSPC, EIO or
// EFBIG at any entry, and to count or record calls.
//
// Errors, uniform: on failure an entry returns -1 and sets errno (an errno
// value, whatever the OS); on success it returns 0, or the count, offset or
// handle it says. A backend maps its own errors to the errno a Linux call
// would set for the same cause (no space: ENOSPC; a handle that cannot
// seek: ESPIPE; a full non-blocking stream: EAGAIN; a name taken: EEXIST).
// An entry may fail with EINTR; the callers retry where it can happen.
//
// What a backend must provide: every entry of the core groups, with the
// contract written beside it. What it may refuse: the entries marked "may
// refuse", with the errno said there; the library then does what is said
// there too (falls back, or reports the option unsupported, as
// file::preallocate does today on a filesystem without fallocate). The
// POSIX group at the end serves writer_options::atomic_replace's copy of
// the old file's owner, mode and extended attributes; a backend without
// POSIX metadata (the Win32 one) refuses each of its entries with ENOSYS,
// and has its own way of copying metadata: the Windows group after it
// (the old file's security descriptor and attributes, and the temporary's
// rename and deletion through its own handle).
//
// Cost: one relaxed atomic load and one indirect call per entry; no entry is
// on the writer's inline path (put, small writes).
#pragma once

#include <sys/types.h>

#include <cstdint>

#include "os/handle.hpp"

namespace sluice::detail {

// handle, no_handle(), working_directory and io_piece: os/handle.hpp.

// How a file is opened. Every handle sluice opens is closed on exec.
struct open_request {
  enum class access : unsigned char { read, write, read_write, path_only } mode = access::read;
  bool create = false;             // create it if missing, with `permissions`
  bool exclusive = false;          // with create: fail with EEXIST if it exists
  bool truncate = false;           // empty an existing file
  bool append = false;             // every write goes to the end
  bool direct = false;             // no page cache (O_DIRECT); EINVAL where refused
  bool unnamed_temporary = false;  // path names a directory; the file has no name
                                   // (may refuse: EOPNOTSUPP; named ones are used instead)
  bool directory = false;          // fail with ENOTDIR unless it is a directory
  bool no_follow = false;          // a symbolic link as the last component: ELOOP
  bool non_blocking = false;       // never wait at open (a FIFO, a lease)
  bool sequential = false;         // a hint: it will be read from start to end (Windows:
                                   // FILE_FLAG_SEQUENTIAL_SCAN; others: advise_sequential)
  unsigned permissions = 0;        // for create and unnamed_temporary (before the umask)
  // Windows only (POSIX backends ignore them): for create, the security
  // descriptor (self-relative, as read_security gives it) the new file gets
  // at CreateFileW, and its attributes (FILE_ATTRIBUTE_*); nullptr and 0:
  // what its directory gives new files. `deletable`: the handle also gets
  // DELETE access, which rename_held and remove_held need (a handle that
  // creates the file has it whatever the descriptor grants).
  const void* security = nullptr;
  std::uint32_t attributes = 0;
  bool deletable = false;
};

// What a handle's open state says (the flags that can change after open).
struct handle_state {
  bool append = false;
  bool direct = false;
  bool non_blocking = false;
};

enum class file_type : unsigned char {
  regular,
  directory,
  symlink,
  fifo,
  socket,
  character_device,
  block_device,
  other
};

// What sluice reads of a file's status.
struct file_facts {
  file_type type = file_type::other;
  std::uint64_t size = 0;
  unsigned mode = 0;  // permission bits, with set-user-id, set-group-id and sticky (07777)
  std::uint32_t owner = 0, group = 0;   // user and group ids
  std::uint64_t block_size = 0;         // the preferred I/O size
  std::uint64_t device = 0, inode = 0;  // which file it is
  std::uint32_t attributes = 0;         // Windows: FILE_ATTRIBUTE_* (0 elsewhere)
};

// The filesystems whose behaviour sluice adapts to; `other` for the rest.
enum class filesystem : unsigned char { ext4, xfs, btrfs, tmpfs, other };

// Where direct I/O must be aligned, as the filesystem reports it.
struct direct_io_facts {
  bool known = false;       // false: the filesystem does not say (use file_facts::block_size)
  unsigned memory = 0;      // buffer address alignment
  unsigned offset = 0;      // offset and length alignment; 0: no direct I/O on this file
  bool type_known = false;  // whether `type` was reported with it
  file_type type = file_type::other;
};

enum class space_mode : unsigned char {
  grow,           // reserve, and grow the size to offset + length
  keep_size,      // reserve, leave the size alone
  written_zeros,  // reserve as blocks already written with zeros (may refuse: EOPNOTSUPP
                  // or EINVAL; the journal then writes the zeros itself)
};

enum class readiness : unsigned char { readable, writable };

enum class lock_kind : unsigned char { shared, exclusive };

// Which end of a region of data seek_region finds.
enum class region : unsigned char { data, hole };

// An asynchronous write queue (io_uring's ring on Linux).
struct async_queue;

struct sys_table {
  // ---- core: files ----------------------------------------------------
  // Opens `path` (relative to the directory `dir` holds, or to
  // working_directory): the new handle. Paths are UTF-8 on every platform
  // (os/path_text.hpp makes them from std::filesystem::path). On failure
  // no_handle() (-1 on POSIX) with errno.
  handle (*open)(handle dir, const char* path, const open_request& how);
  // Releases the handle, also when it reports an error (never retried).
  int (*close)(handle h);
  // Writes (reads) the pieces at `offset`: the bytes transferred, maybe
  // fewer. ESPIPE for a handle that cannot seek: sluice then uses the
  // stream entries. `count` is at most max_pieces.
  ssize_t (*write_at)(handle h, const io_piece* pieces, int count, std::int64_t offset);
  ssize_t (*read_at)(handle h, const io_piece* pieces, int count, std::int64_t offset);
  // The same at the handle's own position: pipes, sockets, terminals and
  // borrowed descriptors. 0 from read_stream is the end.
  ssize_t (*write_stream)(handle h, const io_piece* pieces, int count);
  ssize_t (*read_stream)(handle h, const io_piece* pieces, int count);
  // Waits until a non-blocking stream that said EAGAIN can take bytes again
  // (or has some to give, or never will).
  int (*wait_ready)(handle h, readiness what);
  // Makes the file's data (and the metadata needed to read it) durable;
  // sync_all also its other metadata. A failure may have lost data: sluice
  // never retries it.
  int (*sync_data)(handle h);
  int (*sync_all)(handle h);
  // Makes the names in the directory `dir` holds durable (creations,
  // renames, removals). May refuse (EINVAL, as some filesystems do): the
  // caller reports it.
  int (*sync_directory)(handle dir);
  // Reserves [offset, offset + length). May refuse: EOPNOTSUPP (the option
  // is then reported unsupported, or, for written_zeros, done by hand).
  int (*preallocate)(handle h, std::int64_t offset, std::int64_t length, space_mode how);
  // Sets the size (cuts, or extends with zeros).
  int (*resize)(handle h, std::int64_t size);
  // The largest size this process may give a file (RLIMIT_FSIZE on Linux):
  // growing one past it fails with EFBIG and may kill the process
  // (SIGXFSZ). UINT64_MAX where there is no limit.
  int (*file_size_limit)(std::uint64_t* out);
  int (*facts)(handle h, file_facts* out);
  // The open state (append, direct, non-blocking), and setting it: the
  // state becomes exactly `state`.
  int (*state)(handle h, handle_state* out);
  int (*set_state)(handle h, const handle_state& state);
  // Which filesystem the file is on (ext2 and ext3 count as ext4).
  int (*filesystem_of)(handle h, filesystem* out);
  // Where direct I/O must be aligned. May refuse (any error, or known false):
  // the library then uses file_facts::block_size.
  int (*direct_alignment)(handle h, direct_io_facts* out);
  // How many extents the file's data is stored in (after writing back).
  // May refuse: EOPNOTSUPP or ENOTTY (extent_count() says unsupported).
  int (*count_extents)(handle h, std::uint64_t* count);
  // Starts writing back the range's dirty pages, without waiting; with
  // `wait`, writes it back and waits for it (no metadata, not durable).
  // ESPIPE for a stream. May be a no-op returning 0.
  int (*writeback)(handle h, std::int64_t offset, std::int64_t length, bool wait);
  // Drops the range's clean pages from the cache (a hint). May be a no-op.
  int (*drop_cache)(handle h, std::int64_t offset, std::int64_t length);
  // Tells the OS the whole file will be read from start to end, so that it
  // reads further ahead and drops pages behind sooner (a hint). ESPIPE for a
  // stream. May be a no-op returning 0.
  int (*advise_sequential)(handle h);
  // The offset of the first byte of data (region::data) or of the first
  // hole (region::hole) at or after `offset`: -1 with ENXIO where there is
  // none; may refuse (EINVAL): the journal then reads everything.
  std::int64_t (*seek_region)(handle h, std::int64_t offset, region what);
  // Makes the filesystem overwrite the file's blocks in place from now on
  // instead of copying them on write (btrfs's No_COW attribute, which also
  // stops its data checksums), for a file still empty. Two calls: read the
  // attributes, set them. May refuse: EOPNOTSUPP, ENOTTY or EINVAL on a
  // filesystem without the attribute (the file is then written as before).
  int (*set_no_copy_on_write)(handle h);

  // ---- core: directories ----------------------------------------------
  // Renames `from` over `to`, replacing it atomically if it exists.
  int (*rename)(handle from_dir, const char* from, handle to_dir, const char* to);
  // Removes the file `name`.
  int (*remove)(handle dir, const char* name);
  // Creates directory `path` with `permissions`; EEXIST if it exists.
  int (*make_directory)(const char* path, unsigned permissions);
  // Fills `names` with the next names in the directory `dir` holds (".",
  // ".." included), each ended by a NUL: the bytes used, 0 at the end.
  // `size` is at least 32 KiB; each call reads the directory once.
  ssize_t (*list_directory)(handle dir, char* names, size_t size);
  // Takes an advisory lock on the whole file, failing with EWOULDBLOCK if
  // another handle holds a conflicting one; released when the handle closes.
  int (*lock)(handle h, lock_kind kind);

  // ---- core: unnamed temporaries (atomic_replace; may refuse, ENOENT or
  // EOPNOTSUPP: a named temporary is used instead) ------------------------
  // Whether the unnamed temporary `h` can be given a name later: 0 if so.
  int (*can_link_unnamed)(handle h);
  // Gives the unnamed temporary `h` the name `name` in `dir`.
  int (*link_unnamed)(handle h, handle dir, const char* name);

  // ---- core: asynchronous writes (write_behind) ------------------------
  // May refuse: async_open fails with ENOSYS (without liburing), and
  // write_behind uses a thread instead.
  // async_open: a queue of `entries` writes in flight.
  int (*async_open)(unsigned entries, async_queue** queue);
  // async_close: waits for nothing, and drops a failed submission still
  // queued; call it once no write is in flight (a write under way goes on).
  void (*async_close)(async_queue* queue);
  // async_register: registers buffers[0, count) for async_submit's
  // buffer_index; ENOMEM past RLIMIT_MEMLOCK (the writes then go unregistered).
  int (*async_register)(async_queue* queue, const io_piece* buffers, unsigned count);
  // async_submit: submits one write of data[0, size) at `offset` of `h`,
  // from registered buffer `buffer_index` (or -1); its completion carries
  // `tag`. 0 once submitted. A write whose submission failed may stay
  // queued (io_uring keeps it in its ring) and go out with the next
  // submission, even long after: once one fails, the caller submits
  // nothing more on the queue (async_drain excepted); it may still wait
  // for the writes submitted before, and async_close drops the failed one.
  int (*async_submit)(async_queue* queue, handle h, const void* data, unsigned size,
                      std::int64_t offset, int buffer_index, std::uint64_t tag);
  // async_complete: waits for one completion and consumes it: its tag, and
  // its result (bytes written, or -errno). -1 with EINTR if a signal came first.
  int (*async_complete)(async_queue* queue, std::uint64_t* tag, int* result);
  // async_drain: for a caller that lost count of its completions: waits
  // until every write submitted on the queue is over, whether or not its
  // completion was consumed (the completions it meets are consumed and
  // dropped). 0 then: no write submitted on the queue reaches a file after
  // it, and their buffers may be reused. It submits a request of its own,
  // which sends a failed submission still queued: that write is over too.
  // -1 with errno if the queue cannot wait (a signal does not stop it):
  // writes may then still be under way. Its request's tag is 2^64 - 1,
  // which no write may carry.
  int (*async_drain)(async_queue* queue);

  // ---- POSIX group: atomic_replace's metadata --------------------------
  // writer_options::atomic_replace follows a path's final symbolic links
  // itself, one held directory at a time, and gives the new file the old
  // one's owner, extended attributes (ACLs among them) and mode. A backend
  // without these refuses each with ENOSYS (Windows, which copies metadata
  // with the Windows group below). Each has the POSIX call's contract.
  // The status of `path` itself, not following a final link (lstat).
  int (*path_facts)(const char* path, file_facts* out);
  // The text of the link a path-only handle holds (readlinkat(h, "")).
  ssize_t (*read_link)(handle h, char* buffer, size_t size);
  // Whether the directory `dir` holds is on procfs: 1 if so, 0 if not.
  int (*on_procfs)(handle dir);
  // Whether `h` (path-only) is a mount point: 1 if so, 0 if not.
  int (*mount_root)(handle h);
  std::uint32_t (*effective_user)();  // geteuid: never fails
  int (*set_owner)(handle h, std::uint32_t owner, std::uint32_t group);
  int (*set_mode)(handle h, unsigned mode);
  // The extended attributes of `path` (following links): the names, NUL
  // after each; a value. ERANGE if `size` is too small.
  ssize_t (*list_attributes)(const char* path, char* names, size_t size);
  ssize_t (*get_attribute)(const char* path, const char* name, void* value, size_t size);
  int (*set_attribute)(handle h, const char* name, const void* value, size_t size);
  int (*remove_attribute)(handle h, const char* name);

  // ---- Windows group: atomic_replace's security copy and its temporary -
  // What a replacement keeps of the file it replaces on Windows, and the
  // rename and removal of its temporary through the handle that created
  // it. POSIX backends refuse each with ENOSYS (not called there).
  // The security descriptor of the file `h` holds (a path-only handle),
  // self-relative, for a new file to be created with (open_request::security):
  // its owner, group and DACL (always protected from inheritance, the
  // entries it inherited kept in it as they are), and its SACL and
  // integrity label where this process may read them (`*parts`:
  // security_part bits of what is in). Returns its size; the bytes are
  // written only if that fits in `size` (0 asks the size). -1 with errno if
  // a part cannot be read (the SACL and label: but for want of the
  // privilege, or on a filesystem without labels); `*parts` then holds
  // what was read before it.
  ssize_t (*read_security)(handle h, void* descriptor, size_t size, unsigned* parts);
  // Sets the file's attributes (FILE_ATTRIBUTE_*) on an open handle.
  int (*set_file_attributes)(handle h, std::uint32_t attributes);
  // Renames the file `h` holds (opened `deletable`) over `to` in `to_dir`,
  // replacing it atomically if it exists, through `h`: no other handle is
  // opened on it, so the file's own DACL is not asked for DELETE again
  // (Windows acts on the file `h` holds whatever its name is by now; Wine
  // by the name `h` was opened by). `h` stays open.
  int (*rename_held)(handle h, handle to_dir, const char* to);
  // Deletes the file `h` holds (opened `deletable`), read-only or not,
  // through `h`: its name goes at once where the system can (POSIX
  // semantics), else when the last handle on it closes.
  int (*remove_held)(handle h);
};

// The parts of a Windows security descriptor read_security reports.
namespace security_part {
inline constexpr unsigned owner = 1, group = 2, dacl = 4, sacl = 8, label = 16;
}

// The table of the backend this build has (linux_sys.cpp, posix_sys.cpp,
// win32_sys.cpp).
const sys_table& real_sys() noexcept;

// The table in use (the real one unless a test installed another).
const sys_table& sys() noexcept;

// Installs `table` (nullptr restores the real one). The table must outlive
// its use; installing while another thread is inside sluice is not supported.
void set_sys(const sys_table* table) noexcept;

}  // namespace sluice::detail
