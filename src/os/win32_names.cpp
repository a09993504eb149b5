// The Win32 backend's names and directories: renames, removals (by path,
// or through a handle of the file), new directories, listings, syncing a
// directory, and whole-file locks.
#include <windows.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

#include "os/win32_errors.hpp"
#include "os/win32_handles.hpp"
#include "os/win32_sys.hpp"

namespace sluice::detail::win32 {
namespace {

// Every name in directory `path`, "." and ".." included, or nothing with errno.
std::optional<std::vector<std::string>> names_in(const std::wstring& path) {
  WIN32_FIND_DATAW found;
  HANDLE search = ::FindFirstFileW((path + L"\\*").c_str(), &found);
  if (search == INVALID_HANDLE_VALUE) {
    fail_last();
    return std::nullopt;
  }
  std::vector<std::string> names;
  do {
    names.push_back(narrow(found.cFileName, std::wcslen(found.cFileName)));
  } while (::FindNextFileW(search, &found));
  DWORD error = ::GetLastError();
  ::FindClose(search);
  if (error != ERROR_NO_MORE_FILES) {
    fail(error);
    return std::nullopt;
  }
  return names;
}

// Copies the names from `facts.listed` on that fit in [names, names + size).
ssize_t next_names(handle_facts& facts, char* names, size_t size) {
  size_t used = 0;
  for (; facts.listed < facts.listing.size(); ++facts.listed) {
    const std::string& name = facts.listing[facts.listed];
    if (used + name.size() + 1 > size) break;
    std::memcpy(names + used, name.c_str(), name.size() + 1);
    used += name.size() + 1;
  }
  return static_cast<ssize_t>(used);
}

}  // namespace

// FlushFileBuffers on the directory, through a handle of its own opened for
// writing, which it needs (backup semantics open a directory). NTFS journals
// its metadata, so a flush of the directory also commits the renames and
// creations in it; where a filesystem refuses it (ERROR_INVALID_FUNCTION),
// EINVAL as the seam says.
int sync_directory(handle dir) {
  std::optional<std::wstring> path = full_path(dir, ".");
  if (!path) return -1;
  HANDLE writable = ::CreateFileW(path->c_str(), GENERIC_READ | GENERIC_WRITE,
                                  FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                                  OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (writable == INVALID_HANDLE_VALUE) return fail_last();
  BOOL flushed = ::FlushFileBuffers(writable);
  DWORD error = flushed ? ERROR_SUCCESS : ::GetLastError();
  ::CloseHandle(writable);
  if (flushed) return 0;
  return error == ERROR_INVALID_FUNCTION ? refuse(EINVAL) : fail(error);
}

namespace {

// FileRenameInfoEx and FileDispositionInfoEx: MinGW-w64's headers declare
// them only for a _WIN32_WINNT they compare against the wrong scale, so never.
constexpr auto disposition_info_ex = static_cast<FILE_INFO_BY_HANDLE_CLASS>(21);
constexpr auto rename_info_ex = static_cast<FILE_INFO_BY_HANDLE_CLASS>(22);

// FILE_RENAME_FLAG_IGNORE_READONLY_ATTRIBUTE (Windows 10 1809 on), which
// the headers lack: a read-only destination is replaced, as rename(2) does.
constexpr DWORD ignore_read_only = 0x40;

// SetFileInformationByHandle with a FILE_RENAME_INFO naming `to` (a full
// path): `flags` for FileRenameInfoEx, or FileRenameInfo, replacing
// (ReplaceIfExists), for `how`. ERROR_SUCCESS, or the error.
DWORD set_rename_info(HANDLE source, const std::wstring& to, FILE_INFO_BY_HANDLE_CLASS how,
                      DWORD flags) {
  std::size_t name_bytes = to.size() * sizeof(wchar_t);
  std::vector<std::uint64_t> storage((sizeof(FILE_RENAME_INFO) + name_bytes) / 8 + 1);
  auto* info = reinterpret_cast<FILE_RENAME_INFO*>(storage.data());
  if (how == rename_info_ex)
    info->Flags = flags;
  else
    info->ReplaceIfExists = TRUE;
  info->RootDirectory = nullptr;
  info->FileNameLength = static_cast<DWORD>(name_bytes);
  std::memcpy(info->FileName, to.c_str(), name_bytes + sizeof(wchar_t));
  DWORD size = static_cast<DWORD>(storage.size() * 8);
  return ::SetFileInformationByHandle(source, how, info, size) ? ERROR_SUCCESS : ::GetLastError();
}

// A rename with POSIX semantics: FileRenameInfoEx on `source`, a handle
// with DELETE access (Windows 10 1709 on, NTFS), which replaces the
// destination even while other handles have it open (sharing delete, as
// sluice's do), and a read-only one where it can (1809 on; else, refused
// with ERROR_INVALID_PARAMETER, without). ERROR_SUCCESS, or the error.
DWORD rename_posix(HANDLE source, const std::wstring& to) {
  constexpr DWORD replacing = FILE_RENAME_FLAG_REPLACE_IF_EXISTS | FILE_RENAME_FLAG_POSIX_SEMANTICS;
  DWORD error = set_rename_info(source, to, rename_info_ex, replacing | ignore_read_only);
  if (error == ERROR_INVALID_PARAMETER)
    error = set_rename_info(source, to, rename_info_ex, replacing);
  return error;
}

// rename_posix on a handle of its own, opened by the path `from`.
DWORD rename_posix(const std::wstring& from, const std::wstring& to) {
  owned_handle source(
      ::CreateFileW(from.c_str(), DELETE | SYNCHRONIZE, share_all, nullptr, OPEN_EXISTING,
                    FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
  if (!source) return ::GetLastError();
  return rename_posix(source.get(), to);
}

// Whether `error` says a class of SetFileInformationByHandle with POSIX
// semantics (FileRenameInfoEx, FileDispositionInfoEx) or its flags are not
// there (an older Windows, another filesystem, Wine), not that the call failed.
bool posix_semantics_missing(DWORD error) {
  return error == ERROR_INVALID_PARAMETER || error == ERROR_NOT_SUPPORTED ||
         error == ERROR_INVALID_FUNCTION || error == ERROR_CALL_NOT_IMPLEMENTED;
}

// FileDispositionInfoEx with `flags`: ERROR_SUCCESS, or the error.
DWORD set_disposition_ex(HANDLE h, DWORD flags) {
  FILE_DISPOSITION_INFO_EX info{flags};
  return ::SetFileInformationByHandle(h, disposition_info_ex, &info, sizeof info)
             ? ERROR_SUCCESS
             : ::GetLastError();
}

// Marks the file `h` holds for deletion: FileDispositionInfoEx with POSIX
// semantics (Windows 10 1709 on, NTFS: the name goes at once), ignoring
// read-only where it can (1809 on); where that class or its flags are
// missing, FileDispositionInfo (the name goes when the last handle closes).
DWORD mark_deleted(HANDLE h) {
  constexpr DWORD deleting = FILE_DISPOSITION_FLAG_DELETE | FILE_DISPOSITION_FLAG_POSIX_SEMANTICS;
  DWORD error = set_disposition_ex(h, deleting | FILE_DISPOSITION_FLAG_IGNORE_READONLY_ATTRIBUTE);
  if (error == ERROR_INVALID_PARAMETER) error = set_disposition_ex(h, deleting);
  if (!posix_semantics_missing(error)) return error;
  FILE_DISPOSITION_INFO info{TRUE};
  return ::SetFileInformationByHandle(h, FileDispositionInfo, &info, sizeof info)
             ? ERROR_SUCCESS
             : ::GetLastError();
}

// Takes the read-only attribute off the file `h` holds: false if it has
// none (or it cannot be read or changed).
bool clear_read_only(HANDLE h) {
  BY_HANDLE_FILE_INFORMATION info;
  if (!::GetFileInformationByHandle(h, &info) || !(info.dwFileAttributes & FILE_ATTRIBUTE_READONLY))
    return false;
  return set_file_attributes(h, info.dwFileAttributes & ~FILE_ATTRIBUTE_READONLY) == 0;
}

// Gives the read-only attribute back to the file `h` holds (after
// clear_read_only, when the deletion it was taken off for failed).
void restore_read_only(HANDLE h) {
  BY_HANDLE_FILE_INFORMATION info;
  if (::GetFileInformationByHandle(h, &info))
    set_file_attributes(h, info.dwFileAttributes | FILE_ATTRIBUTE_READONLY);
}

}  // namespace

// The POSIX-semantics rename where Windows has it, replacing a read-only
// destination too where it can; else MoveFileExW, replacing the
// destination (unless another handle has it open, or it is read-only) and
// returning once the rename is on disk (MOVEFILE_WRITE_THROUGH).
int rename(handle from_dir, const char* from, handle to_dir, const char* to) {
  std::optional<std::wstring> source = full_path(from_dir, from);
  std::optional<std::wstring> destination = full_path(to_dir, to);
  if (!source || !destination) return -1;
  DWORD error = rename_posix(*source, *destination);
  if (error == ERROR_SUCCESS) return 0;
  if (!posix_semantics_missing(error)) return fail(error);
  DWORD how = MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH;
  return ::MoveFileExW(source->c_str(), destination->c_str(), how) ? 0 : fail_last();
}

// The same renames on `h` itself: the POSIX-semantics one where Windows
// has it, else FileRenameInfo replacing the destination (unless another
// handle has it open, or it is read-only). No handle is opened by path.
int rename_held(handle h, handle to_dir, const char* to) {
  std::optional<std::wstring> destination = full_path(to_dir, to);
  if (!destination) return -1;
  DWORD error = rename_posix(h, *destination);
  if (posix_semantics_missing(error)) error = set_rename_info(h, *destination, FileRenameInfo, 0);
  return error == ERROR_SUCCESS ? 0 : fail(error);
}

// mark_deleted on `h`; a read-only file, which FileDispositionInfo refuses
// (ERROR_ACCESS_DENIED), loses that attribute (FileBasicInfo on `h`) and is
// marked then, as unlink(2) removes a file of mode 0444 (the attribute is
// put back if the deletion still fails, as remove does).
int remove_held(handle h) {
  DWORD error = mark_deleted(h);
  if (error == ERROR_ACCESS_DENIED && clear_read_only(h)) {
    error = mark_deleted(h);
    if (error != ERROR_SUCCESS) restore_read_only(h);
  }
  return error == ERROR_SUCCESS ? 0 : fail(error);
}

// DeleteFileW; a read-only file, which it refuses (ERROR_ACCESS_DENIED),
// loses that attribute and is deleted then, as unlink(2) removes a file of
// mode 0444 (the attribute is put back if the deletion still fails).
int remove(handle dir, const char* name) {
  std::optional<std::wstring> path = full_path(dir, name);
  if (!path) return -1;
  if (::DeleteFileW(path->c_str())) return 0;
  DWORD error = ::GetLastError();
  DWORD attributes = ::GetFileAttributesW(path->c_str());
  if (error != ERROR_ACCESS_DENIED || attributes == INVALID_FILE_ATTRIBUTES ||
      !(attributes & FILE_ATTRIBUTE_READONLY) ||
      !::SetFileAttributesW(path->c_str(), attributes & ~FILE_ATTRIBUTE_READONLY))
    return fail(error);
  if (::DeleteFileW(path->c_str())) return 0;
  error = ::GetLastError();
  ::SetFileAttributesW(path->c_str(), attributes);
  return fail(error);
}

// The permissions have no Windows equivalent: the directory gets the
// security its parent passes on.
int make_directory(const char* path, unsigned) {
  std::optional<std::wstring> wide = widen(path);
  if (!wide) return -1;
  return ::CreateDirectoryW(wide->c_str(), nullptr) ? 0 : fail_last();
}

// The directory is read whole at the first call (FindFirstFileW on its
// path); each call hands on the names that fit.
ssize_t list_directory(handle dir, char* names, size_t size) {
  std::optional<handle_facts> facts = recall(dir);
  if (!facts) return refuse(EBADF);
  if (facts->listed == 0 && facts->listing.empty()) {
    std::optional<std::vector<std::string>> all = names_in(facts->path);
    if (!all) return -1;
    update(dir, [&](handle_facts& held) { held.listing = std::move(*all); });
  }
  ssize_t used = 0;
  update(dir, [&](handle_facts& held) { used = next_names(held, names, size); });
  return used;
}

// LockFileEx on every byte, without waiting. Unlike flock, the lock is
// mandatory: other handles cannot read or write the locked range (the
// journal's lock file holds no data).
int lock(handle h, lock_kind kind) {
  OVERLAPPED whole{};
  DWORD how =
      LOCKFILE_FAIL_IMMEDIATELY | (kind == lock_kind::exclusive ? LOCKFILE_EXCLUSIVE_LOCK : 0);
  return ::LockFileEx(h, how, 0, MAXDWORD, MAXDWORD, &whole) ? 0 : fail_last();
}

}  // namespace sluice::detail::win32
