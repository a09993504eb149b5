// os/posix_calls.hpp - the portable POSIX backend's entries, and its table:
// only the calls macOS and the BSDs have too (no io_uring, statx, fallocate
// modes, sync_file_range, O_TMPFILE, FIEMAP, FS_IOC flags, /proc).
// posix_sys.cpp's real_sys() gives table() as it is; the Linux backend
// (linux_sys.cpp) starts from it and replaces the entries where Linux has a
// better call, so that what both do the same way is written once.
//
// Each entry has the contract of its sys_table entry (os/sys.hpp): -1 and
// errno on failure. What the platform lacks is found at build time
// (CMakeLists.txt: SLUICE_HAVE_PWRITEV, _PREADV, _FDATASYNC,
// _POSIX_FADVISE, _POSIX_FALLOCATE), or by its own macro (O_PATH,
// SEEK_DATA, F_FULLFSYNC, F_NOCACHE). docs/platforms.md has the table of
// what each entry maps to on each backend.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cstdint>

#include "os/sys.hpp"
#include "os/uring_sys.hpp"

namespace sluice::detail::posix {

// -1 with errno `error`: how an entry refuses.
int refuse(int error) noexcept;
// 0, or -1 with errno `error`: for the calls that return their error
// instead of setting errno (posix_fadvise, posix_fallocate).
int from_returned(int error) noexcept;

// ---- one call, the same on every POSIX system (posix_calls.cpp) ---------

// The open flags of `how`, O_CLOEXEC always. path_only is O_PATH where the
// system has it (Linux, FreeBSD 14), else O_RDONLY | O_NONBLOCK (the file
// must then be readable, and a symbolic link with no_follow fails with
// ELOOP). Not here: direct and unnamed_temporary, which each backend's
// open maps (or refuses) itself.
int open_flags(const open_request& how);

// pwritev/preadv where the system has them, else write_each/read_each.
ssize_t write_at(handle h, const iovec* pieces, int count, std::int64_t offset);
ssize_t read_at(handle h, const iovec* pieces, int count, std::int64_t offset);
// One pwrite (pread) per piece, stopping after the first that moves fewer
// bytes than its piece (none: the end of the file): the bytes moved, or -1
// with errno if the first call failed. Always compiled, so that tests reach
// it on systems with pwritev too.
ssize_t write_each(handle h, const iovec* pieces, int count, std::int64_t offset);
ssize_t read_each(handle h, const iovec* pieces, int count, std::int64_t offset);

int wait_ready(handle h, readiness what);  // poll
int resize(handle h, std::int64_t size);   // ftruncate
int file_size_limit(std::uint64_t* out);   // getrlimit(RLIMIT_FSIZE)

file_type type_of(mode_t mode);
file_facts facts_of(const struct stat& st);
int facts(handle h, file_facts* out);               // fstat
int path_facts(const char* path, file_facts* out);  // lstat

// F_GETFL / F_SETFL. `direct_flag` is the open flag that stands for
// handle_state::direct (O_DIRECT on Linux), or 0 where there is none:
// set_state_with then refuses direct with EINVAL, and state_with says false.
int state_with(handle h, handle_state* out, int direct_flag);
int set_state_with(handle h, const handle_state& state, int direct_flag);

// posix_fadvise SEQUENTIAL, its error turned into errno; a no-op returning
// 0 where the system lacks it (macOS).
int advise_sequential(handle h);
// lseek SEEK_DATA / SEEK_HOLE where defined, else EINVAL.
std::int64_t seek_region(handle h, std::int64_t offset, region what);

int rename(handle from_dir, const char* from, handle to_dir, const char* to);  // renameat
int remove(handle dir, const char* name);                                      // unlinkat
int make_directory(const char* path, unsigned permissions);                    // mkdir
// flock(LOCK_NB): a lock per open file, as the entry's contract says
// (fcntl's record locks belong to the process, and closing any descriptor
// of the file drops them). Not in POSIX, but in Linux, macOS and the BSDs.
int lock(handle h, lock_kind kind);

// readlinkat(h, ""): the link a path-only (O_PATH) handle holds; ENOENT
// where the handle is not one (systems without O_PATH).
ssize_t read_link(handle h, char* buffer, size_t size);
std::uint32_t effective_user();                                     // geteuid
int set_owner(handle h, std::uint32_t owner, std::uint32_t group);  // fchown
int set_mode(handle h, unsigned mode);                              // fchmod

// Extended attributes, not in POSIX: <sys/xattr.h>'s calls where the system
// has it with Linux's signatures; macOS's (an extra position and options,
// XATTR_NOFOLLOW unset: links followed), its ENOATTR said as ENODATA;
// elsewhere (the BSDs' extattr_*) refused with ENOSYS, which
// atomic_replace takes as "no extended attributes".
ssize_t list_attributes(const char* path, char* names, size_t size);
ssize_t get_attribute(const char* path, const char* name, void* value, size_t size);
int set_attribute(handle h, const char* name, const void* value, size_t size);
int remove_attribute(handle h, const char* name);

// The Windows group: refused (ENOSYS).
ssize_t read_security(handle h, void* descriptor, size_t size, unsigned* parts);
int set_file_attributes(handle h, std::uint32_t attributes);
int rename_held(handle h, handle to_dir, const char* to);
int remove_held(handle h);

// ---- the portable backend's own way (posix_portable.cpp) ----------------

// openat; unnamed_temporary refused (EOPNOTSUPP: a named temporary is
// used); direct is F_NOCACHE after the open where it exists (macOS: no
// alignment needed), else refused with EINVAL, as a filesystem without
// O_DIRECT does, before anything is created.
handle open(handle dir, const char* path, const open_request& how);
// F_FULLFSYNC where it exists (macOS, whose fsync leaves the data in the
// drive's volatile cache), else (or where the filesystem refuses it:
// ENOTSUP, EINVAL, ENOTTY) fdatasync (where present, else fsync) for
// sync_data, fsync for sync_all and sync_directory.
int sync_data(handle h);
int sync_all(handle h);
// posix_fallocate for space_mode::grow where it cannot fall back to
// writing zeros (not glibc's, whose fallback writes a byte per block: a
// "reservation" that is a write); EOPNOTSUPP otherwise, and for keep_size
// and written_zeros.
int preallocate(handle h, std::int64_t offset, std::int64_t length, space_mode how);
// state_with no direct flag; set_state makes direct F_NOCACHE where it
// exists (which state cannot read back: it says false), else EINVAL.
int state(handle h, handle_state* out);
int set_state(handle h, const handle_state& state);
int filesystem_of(handle h, filesystem* out);  // always `other`
// Refused (EOPNOTSUPP): the library then uses file_facts::block_size.
int direct_alignment(handle h, direct_io_facts* out);
int count_extents(handle h, std::uint64_t* count);  // refused: EOPNOTSUPP
// No sync_file_range: starting a writeback is left to the OS (0); waiting
// for one is sync_data without F_FULLFSYNC (durable too, at a sync's
// cost). ESPIPE for a stream, from one lseek.
int writeback(handle h, std::int64_t offset, std::int64_t length, bool wait);
// posix_fadvise DONTNEED where the system has it; else F_NOCACHE where it
// exists (macOS: the file's later reads and writes skip the cache
// instead), else a no-op returning 0.
int drop_cache(handle h, std::int64_t offset, std::int64_t length);
int set_no_copy_on_write(handle h);  // refused: EOPNOTSUPP
// readdir on a stream over a duplicate of `dir` (which shares its offset),
// a block of the stream (one getdents / getdirentries) at a time: a block
// whose names do not all fit is put back (lseek to its start) for the next
// call; EOVERFLOW if one block's names exceed `size`. Costs a dup, the
// stream's reads, and an lseek per name (to see where blocks start).
ssize_t list_directory(handle dir, char* names, size_t size);
int can_link_unnamed(handle h);                            // refused: EOPNOTSUPP
int link_unnamed(handle h, handle dir, const char* name);  // refused: EOPNOTSUPP
int on_procfs(handle dir);                                 // always 0
// A directory whose ".." is on another device, or is itself (the root), is
// where a filesystem is mounted. Any other handle: 0, as no parent can be
// found from it (a file mounted over another, as a container's
// /etc/resolv.conf, then fails at the rename, with EBUSY).
int mount_root(handle h);

// Every entry, as the portable backend has it. The async entries are
// uring_sys.cpp's, which without liburing (always, for this backend)
// refuse with ENOSYS: write_behind uses its thread.
constexpr sys_table table() {
  return {
      .open = open,
      .close = ::close,
      .write_at = write_at,
      .read_at = read_at,
      .write_stream = ::writev,
      .read_stream = ::readv,
      .wait_ready = wait_ready,
      .sync_data = sync_data,
      .sync_all = sync_all,
      .sync_directory = sync_all,
      .preallocate = preallocate,
      .resize = resize,
      .file_size_limit = file_size_limit,
      .facts = facts,
      .state = state,
      .set_state = set_state,
      .filesystem_of = filesystem_of,
      .direct_alignment = direct_alignment,
      .count_extents = count_extents,
      .writeback = writeback,
      .drop_cache = drop_cache,
      .advise_sequential = advise_sequential,
      .seek_region = seek_region,
      .set_no_copy_on_write = set_no_copy_on_write,
      .rename = rename,
      .remove = remove,
      .make_directory = make_directory,
      .list_directory = list_directory,
      .lock = lock,
      .can_link_unnamed = can_link_unnamed,
      .link_unnamed = link_unnamed,
      .async_open = real_async_open,
      .async_close = real_async_close,
      .async_register = real_async_register,
      .async_submit = real_async_submit,
      .async_complete = real_async_complete,
      .async_drain = real_async_drain,
      .path_facts = path_facts,
      .read_link = read_link,
      .on_procfs = on_procfs,
      .mount_root = mount_root,
      .effective_user = effective_user,
      .set_owner = set_owner,
      .set_mode = set_mode,
      .list_attributes = list_attributes,
      .get_attribute = get_attribute,
      .set_attribute = set_attribute,
      .remove_attribute = remove_attribute,
      .read_security = read_security,
      .set_file_attributes = set_file_attributes,
      .rename_held = rename_held,
      .remove_held = remove_held,
  };
}

}  // namespace sluice::detail::posix
