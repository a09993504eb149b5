// The Win32 backend of detail::sys(): files (open, transfers, sync, size,
// facts) here; names, directories and locks in win32_names.cpp; the
// entries Windows refuses in win32_refused.cpp. docs/platforms.md says what
// each entry maps to, and what Wine lacks.
#include "os/win32_sys.hpp"

#include <io.h>
#include <windows.h>

#include <cerrno>
#include <cstring>

#include "os/sys.hpp"
#include "os/win32_errors.hpp"
#include "os/win32_handles.hpp"

namespace sluice::detail::win32 {
namespace {

using access = open_request::access;

// The most bytes one ReadFile or WriteFile takes.
constexpr std::size_t max_call = 1u << 30;

// (GENERIC_WRITE includes FILE_WRITE_ATTRIBUTES, which set_file_attributes
// needs; `deletable` adds DELETE, which rename_held and remove_held need. A
// file created with a security descriptor of its own keeps, on the handle
// that created it, the access asked, whatever the descriptor grants.)
DWORD desired_access(const open_request& how) {
  if (how.mode == access::path_only) return FILE_READ_ATTRIBUTES;
  DWORD wanted = how.mode == access::read    ? GENERIC_READ
                 : how.mode == access::write ? GENERIC_WRITE
                                             : GENERIC_READ | GENERIC_WRITE;
  return wanted | FILE_READ_ATTRIBUTES | (how.deletable ? DELETE : 0);
}

DWORD disposition(const open_request& how) {
  if (how.create && how.exclusive) return CREATE_NEW;
  if (how.create) return how.truncate ? CREATE_ALWAYS : OPEN_ALWAYS;
  return how.truncate ? TRUNCATE_EXISTING : OPEN_EXISTING;
}

// The attributes a created file gets (FILE_ATTRIBUTE_NORMAL alone if none).
DWORD flags(const open_request& how) {
  DWORD chosen = how.create && how.attributes != 0 ? how.attributes : FILE_ATTRIBUTE_NORMAL;
  // A directory, or anything a query handle is opened on, needs backup
  // semantics to be opened at all.
  if (how.directory || how.mode == access::path_only) chosen |= FILE_FLAG_BACKUP_SEMANTICS;
  if (how.no_follow) chosen |= FILE_FLAG_OPEN_REPARSE_POINT;
  if (how.direct) chosen |= FILE_FLAG_NO_BUFFERING;
  if (how.sequential) chosen |= FILE_FLAG_SEQUENTIAL_SCAN;
  return chosen;
}

bool is_directory(HANDLE h) {
  BY_HANDLE_FILE_INFORMATION info;
  return ::GetFileInformationByHandle(h, &info) &&
         (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0;
}

// A directory opened as a file is refused with ERROR_ACCESS_DENIED: EISDIR,
// as Linux says of it.
int fail_open(const std::wstring& path) {
  DWORD error = ::GetLastError();
  DWORD attributes = ::GetFileAttributesW(path.c_str());
  bool directory = attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_DIRECTORY);
  return error == ERROR_ACCESS_DENIED && directory ? refuse(EISDIR) : fail(error);
}

handle real_open(handle dir, const char* path, const open_request& how) {
  if (how.unnamed_temporary) return refuse(EOPNOTSUPP), no_handle();
  std::optional<std::wstring> full = full_path(dir, path);
  if (!full) return no_handle();
  SECURITY_ATTRIBUTES security{sizeof security, const_cast<void*>(how.security), FALSE};
  HANDLE h =
      ::CreateFileW(full->c_str(), desired_access(how), share_all,
                    how.security ? &security : nullptr, disposition(how), flags(how), nullptr);
  if (h == INVALID_HANDLE_VALUE) return fail_open(*full), no_handle();
  if (how.directory && !is_directory(h)) {
    ::CloseHandle(h);
    return refuse(ENOTDIR), no_handle();
  }
  bool stream = ::GetFileType(h) != FILE_TYPE_DISK;
  remember(h, {.path = std::move(*full),
               .append = how.append,
               .direct = how.direct,
               .non_blocking = how.non_blocking,
               .stream = stream});
  return h;
}

int real_close(handle h) {
  forget(h);
  return ::CloseHandle(h) ? 0 : fail_last();
}

// Whether `h` takes transfers at an offset, and whether they go to its end.
struct placement {
  bool stream = false;
  bool append = false;
};

placement placement_of(handle h) {
  if (std::optional<handle_facts> facts = recall(h)) return {facts->stream, facts->append};
  return {::GetFileType(h) != FILE_TYPE_DISK, false};
}

OVERLAPPED at(std::int64_t offset, bool append) {
  OVERLAPPED where{};
  auto position = append ? ~std::uint64_t{0} : static_cast<std::uint64_t>(offset);
  where.Offset = static_cast<DWORD>(position);
  where.OffsetHigh = static_cast<DWORD>(position >> 32);
  return where;
}

// One WriteFile or ReadFile per piece (cut at max_call), at `offset` unless
// `positional` is false, until one moves fewer bytes than asked: the total,
// or -1 with errno if the first call fails. A read at the end (ERROR_HANDLE_EOF,
// or a pipe whose writer left: ERROR_BROKEN_PIPE) ends it. A handle not
// opened for the transfer's direction is refused with ERROR_ACCESS_DENIED:
// EBADF, as POSIX says of it.
ssize_t transfer(handle h, bool write, const io_piece* pieces, int count, std::int64_t offset,
                 bool positional, bool append) {
  ssize_t done = 0;
  for (int i = 0; i < count; ++i) {
    auto* bytes = static_cast<char*>(pieces[i].iov_base);
    std::size_t left = pieces[i].iov_len;
    while (left > 0) {
      DWORD asked = static_cast<DWORD>(left < max_call ? left : max_call);
      DWORD moved = 0;
      OVERLAPPED where = at(offset + done, append);
      OVERLAPPED* place = positional ? &where : nullptr;
      BOOL ok = write ? ::WriteFile(h, bytes, asked, &moved, place)
                      : ::ReadFile(h, bytes, asked, &moved, place);
      if (!ok) {
        DWORD error = ::GetLastError();
        bool end = !write && (error == ERROR_HANDLE_EOF || error == ERROR_BROKEN_PIPE);
        if (end || done > 0) return done;
        return error == ERROR_ACCESS_DENIED ? refuse(EBADF) : fail(error);
      }
      done += moved;
      if (moved < asked) return done;
      bytes += moved;
      left -= moved;
    }
  }
  return done;
}

ssize_t real_write_at(handle h, const io_piece* pieces, int count, std::int64_t offset) {
  placement p = placement_of(h);
  if (p.stream) return refuse(ESPIPE);
  return transfer(h, true, pieces, count, offset, true, p.append);
}

ssize_t real_read_at(handle h, const io_piece* pieces, int count, std::int64_t offset) {
  if (placement_of(h).stream) return refuse(ESPIPE);
  return transfer(h, false, pieces, count, offset, true, false);
}

ssize_t real_write_stream(handle h, const io_piece* pieces, int count) {
  return transfer(h, true, pieces, count, 0, false, false);
}

ssize_t real_read_stream(handle h, const io_piece* pieces, int count) {
  return transfer(h, false, pieces, count, 0, false, false);
}

// Windows handles sluice opens block: nothing to wait for.
int real_wait_ready(handle, readiness) { return 0; }

// FlushFileBuffers: the data, the size and the file's metadata; a pipe or
// console refuses it (EINVAL, as fsync on a pipe).
int real_sync(handle h) {
  if (::FlushFileBuffers(h)) return 0;
  DWORD error = ::GetLastError();
  return error == ERROR_INVALID_HANDLE || error == ERROR_INVALID_FUNCTION ? refuse(EINVAL)
                                                                          : fail(error);
}

bool current_size(handle h, std::int64_t* size) {
  LARGE_INTEGER now;
  if (!::GetFileSizeEx(h, &now)) return false;
  *size = now.QuadPart;
  return true;
}

int set_end_of_file(handle h, std::int64_t size) {
  FILE_END_OF_FILE_INFO end{};
  end.EndOfFile.QuadPart = size;
  return ::SetFileInformationByHandle(h, FileEndOfFileInfo, &end, sizeof end) ? 0 : fail_last();
}

// FileAllocationInfo reserves clusters up to `size` (never below the file's
// size, which would cut it).
bool reserve(handle h, std::int64_t size) {
  FILE_ALLOCATION_INFO allocation{};
  allocation.AllocationSize.QuadPart = size;
  return ::SetFileInformationByHandle(h, FileAllocationInfo, &allocation, sizeof allocation);
}

// Whether a failed FileAllocationInfo says the class is not there at all
// (Wine: ERROR_CALL_NOT_IMPLEMENTED; a filesystem: ERROR_NOT_SUPPORTED or
// ERROR_INVALID_FUNCTION), not that the space is missing.
bool cannot_reserve(DWORD error) {
  int value = errno_of(error);
  return value == ENOSYS || value == EOPNOTSUPP;
}

// grow: reserve, then set the size (where clusters cannot be reserved, as
// under Wine, the size alone: Windows extends a file with zeros);
// keep_size: reserve past the end, or EOPNOTSUPP where that cannot be done;
// written_zeros: refused (EOPNOTSUPP).
int real_preallocate(handle h, std::int64_t offset, std::int64_t length, space_mode how) {
  if (how == space_mode::written_zeros) return refuse(EOPNOTSUPP);
  std::int64_t size = 0, end = offset + length;
  if (!current_size(h, &size)) return fail_last();
  if (end <= size) return 0;
  if (reserve(h, end)) return how == space_mode::keep_size ? 0 : set_end_of_file(h, end);
  DWORD error = ::GetLastError();
  if (!cannot_reserve(error)) return fail(error);
  return how == space_mode::keep_size ? refuse(EOPNOTSUPP) : set_end_of_file(h, end);
}

int real_resize(handle h, std::int64_t size) { return set_end_of_file(h, size); }

int real_file_size_limit(std::uint64_t* out) {
  *out = UINT64_MAX;
  return 0;
}

// A symbolic link only if the reparse point is one (a handle opened with
// no_follow); other reparse points (deduplicated or cloud files, mount
// points) are what their attributes say.
bool is_symbolic_link(handle h, DWORD attributes) {
  if (!(attributes & FILE_ATTRIBUTE_REPARSE_POINT)) return false;
  FILE_ATTRIBUTE_TAG_INFO tag{};
  return ::GetFileInformationByHandleEx(h, FileAttributeTagInfo, &tag, sizeof tag) &&
         tag.ReparseTag == IO_REPARSE_TAG_SYMLINK;
}

file_type type_of(handle h, DWORD attributes) {
  if (is_symbolic_link(h, attributes)) return file_type::symlink;
  if (attributes & FILE_ATTRIBUTE_DIRECTORY) return file_type::directory;
  return file_type::regular;
}

// A stream's facts: its kind alone.
int stream_facts(DWORD kind, file_facts* out) {
  *out = {};
  out->type = kind == FILE_TYPE_PIPE ? file_type::fifo : file_type::character_device;
  return 0;
}

int real_facts(handle h, file_facts* out) {
  DWORD kind = ::GetFileType(h);
  if (kind == FILE_TYPE_UNKNOWN && ::GetLastError() != NO_ERROR) return fail_last();
  if (kind != FILE_TYPE_DISK) return stream_facts(kind, out);
  BY_HANDLE_FILE_INFORMATION info;
  if (!::GetFileInformationByHandle(h, &info)) return fail_last();
  bool read_only = (info.dwFileAttributes & FILE_ATTRIBUTE_READONLY) != 0;
  *out = {.type = type_of(h, info.dwFileAttributes),
          .size = (std::uint64_t{info.nFileSizeHigh} << 32) | info.nFileSizeLow,
          .mode = read_only ? 0444u : 0666u,
          .block_size = 4096,
          .device = info.dwVolumeSerialNumber,
          .inode = (std::uint64_t{info.nFileIndexHigh} << 32) | info.nFileIndexLow,
          .attributes = info.dwFileAttributes};
  return 0;
}

int real_state(handle h, handle_state* out) {
  std::optional<handle_facts> facts = recall(h);
  *out = facts ? handle_state{facts->append, facts->direct, facts->non_blocking} : handle_state{};
  return 0;
}

// Append and direct are chosen at CreateFileW and cannot change on an open
// handle (EINVAL); non_blocking is only recorded.
int real_set_state(handle h, const handle_state& state) {
  handle_state now;
  real_state(h, &now);
  if (state.append != now.append || state.direct != now.direct) return refuse(EINVAL);
  update(h, [&](handle_facts& facts) { facts.non_blocking = state.non_blocking; });
  return 0;
}

int real_filesystem_of(handle, filesystem* out) {
  *out = filesystem::other;
  return 0;
}

// FILE_FLAG_NO_BUFFERING wants sector-aligned offsets, lengths and buffer
// addresses: the logical sector size FileStorageInfo reports (Windows 8 on;
// refused where missing, and the library then uses facts' block_size).
int real_direct_alignment(handle h, direct_io_facts* out) {
  FILE_STORAGE_INFO storage{};
  if (!::GetFileInformationByHandleEx(h, FileStorageInfo, &storage, sizeof storage))
    return fail_last();
  unsigned sector = storage.LogicalBytesPerSector;
  *out = {.known = sector != 0, .memory = sector, .offset = sector};
  return 0;
}

// No writeback to start or wait for apart from FlushFileBuffers, and no
// per-file cache to drop: hints that do nothing (ESPIPE on a stream).
int real_writeback(handle h, std::int64_t, std::int64_t, bool) {
  return placement_of(h).stream ? refuse(ESPIPE) : 0;
}

int real_drop_cache(handle, std::int64_t, std::int64_t) { return 0; }

// The hint is FILE_FLAG_SEQUENTIAL_SCAN, given at open (open_request::sequential).

int real_advise_sequential(handle h) { return placement_of(h).stream ? refuse(ESPIPE) : 0; }

constexpr sys_table real_table{
    .open = real_open,
    .close = real_close,
    .write_at = real_write_at,
    .read_at = real_read_at,
    .write_stream = real_write_stream,
    .read_stream = real_read_stream,
    .wait_ready = real_wait_ready,
    .sync_data = real_sync,
    .sync_all = real_sync,
    .sync_directory = sync_directory,
    .preallocate = real_preallocate,
    .resize = real_resize,
    .file_size_limit = real_file_size_limit,
    .facts = real_facts,
    .state = real_state,
    .set_state = real_set_state,
    .filesystem_of = real_filesystem_of,
    .direct_alignment = real_direct_alignment,
    .count_extents = count_extents,
    .writeback = real_writeback,
    .drop_cache = real_drop_cache,
    .advise_sequential = real_advise_sequential,
    .seek_region = seek_region,
    .set_no_copy_on_write = set_no_copy_on_write,
    .rename = rename,
    .remove = remove,
    .make_directory = make_directory,
    .list_directory = list_directory,
    .lock = lock,
    .can_link_unnamed = can_link_unnamed,
    .link_unnamed = link_unnamed,
    .async_open = async_open,
    .async_close = async_close,
    .async_register = async_register,
    .async_submit = async_submit,
    .async_complete = async_complete,
    .async_drain = async_drain,
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

}  // namespace
}  // namespace sluice::detail::win32

namespace sluice::detail {

const sys_table& real_sys() noexcept { return win32::real_table; }

handle handle_of_descriptor(int descriptor) noexcept {
  return reinterpret_cast<handle>(::_get_osfhandle(descriptor));
}

}  // namespace sluice::detail
