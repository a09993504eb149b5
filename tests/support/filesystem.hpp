// What the filesystem under a test's directory can do, as the library's own
// seam reports it (sys_table::filesystem_of, direct I/O alignment), so that
// a test derives its expectations from the filesystem it runs on ($TMPDIR:
// ext4, tmpfs, XFS, btrfs...) and skips, saying why, only where a facility
// is absent.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

#include "os/sys.hpp"

namespace sluice_test {

// The filesystem `path` lives on, as the real backend's filesystem_of says
// (whatever a fake_sys in place reports); fails the test and says `other`
// if `path` cannot be opened.
sluice::detail::filesystem filesystem_of(const std::filesystem::path& path);

// True if `path` lives on a tmpfs.
bool on_tmpfs(const std::filesystem::path& path);

// The alignment of direct I/O on `path`'s filesystem (a writer with
// caching::direct creates `path` to find out, so that it is the library's
// own answer: statx's STATX_DIOALIGN where the filesystem reports it, as
// ext4 and XFS do, else st_blksize, as on btrfs and tmpfs), or 0 where
// O_DIRECT is refused (tmpfs before Linux 6.6, say).
std::size_t direct_block(const std::filesystem::path& path);

// The empty string if clean pages of the files in `dir` can be dropped
// from the page cache (posix_fadvise POSIX_FADV_DONTNEED), else why not:
// on tmpfs the cached pages are the file itself.
std::string needs_droppable_cache(const std::filesystem::path& dir);

// The empty string if the seam's backend reserves space for a file in
// `dir` the way `how` says (preallocate; grow by default, keep_size for
// writer_options::preallocate's reservation past the data), else why not:
// the filesystem has no fallocate, or the backend refuses it (the portable
// POSIX one on glibc; the Win32 one under Wine, which reserves no clusters,
// for keep_size). One probe file, removed.
std::string needs_preallocation(const std::filesystem::path& dir,
                                sluice::detail::space_mode how = sluice::detail::space_mode::grow);

// The empty string if symbolic links can be made in `dir` (with
// std::filesystem::create_symlink), else why a test that makes one must be
// skipped: the MinGW-w64 build's standard library makes none (ENOSYS), and
// Windows refuses them to a process without the privilege or Developer
// Mode. One probe link, removed.
std::string needs_symlinks(const std::filesystem::path& dir);

// The empty string if the backend creates unnamed temporaries in `dir`
// (O_TMPFILE), else why not: the filesystem or the backend refuses them.
std::string needs_unnamed_temporaries(const std::filesystem::path& dir);

// The empty string if the backend knows /proc for procfs (on_procfs), as
// the Linux one does, else why a test of how sluice treats /proc's links
// and files must be skipped (the portable POSIX backend, for systems
// without /proc, says no).
std::string needs_procfs();

}  // namespace sluice_test
