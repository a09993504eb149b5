// What the Win32 backend remembers of each handle it opened: what POSIX
// keeps in the descriptor and Windows does not report (the path it was
// opened by, to resolve names relative to a directory; append; direct; a
// directory listing under way). A table under a lock; a handle the backend
// did not open (a borrowed one) has no entry. Costs a lookup per call that
// needs it (positional transfers, relative opens, state).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "os/handle.hpp"

namespace sluice::detail::win32 {

// What another process may do with a file sluice has open: read it while it
// is written, write it, and rename or remove it (a rename over it included):
// FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE.
inline constexpr unsigned long share_all = 0x1 | 0x2 | 0x4;

struct handle_facts {
  std::wstring path;  // full path it was opened by
  bool append = false;
  bool direct = false;
  bool non_blocking = false;           // recorded only: Windows handles block
  bool stream = false;                 // not a disk file: transfers at an offset are ESPIPE
  std::vector<std::string> listing{};  // list_directory's names, read at its first call
  std::size_t listed = 0;              // how many of them were returned
};

void remember(handle h, handle_facts facts);
void forget(handle h) noexcept;
// A copy of what is remembered of `h`; nothing for a handle not opened here.
std::optional<handle_facts> recall(handle h);
// Calls `change(facts)` on `h`'s entry under the lock: false if it has none.
bool update(handle h, const std::function<void(handle_facts&)>& change);

// A HANDLE the backend opens for a call of its own (a second handle on a
// file, a directory opened to flush it), closed when this goes
// (CloseHandle, its failure ignored: nothing is written through such a
// handle; GetLastError kept as it was, for the caller to report), whichever
// way the call leaves, a thrown exception included. INVALID_HANDLE_VALUE
// (no_handle()) holds nothing. Move-only.
class owned_handle {
 public:
  explicit owned_handle(handle h) noexcept : handle_(h) {}
  owned_handle(owned_handle&& other) noexcept : handle_(other.handle_) {
    other.handle_ = no_handle();
  }
  owned_handle& operator=(owned_handle&&) = delete;
  ~owned_handle();
  handle get() const noexcept { return handle_; }
  explicit operator bool() const noexcept { return handle_ != no_handle(); }

 private:
  handle handle_;
};

// The UTF-16 text of UTF-8 `text`; nothing (errno EINVAL) if it is not UTF-8.
std::optional<std::wstring> widen(const char* text);
// The UTF-8 text of UTF-16 `text`.
std::string narrow(const wchar_t* text, std::size_t size);

// The full path `path` names relative to `dir` (working_directory, or a
// directory this backend opened; another handle's path is asked of Windows,
// GetFinalPathNameByHandleW); "." is the directory itself. Nothing, with
// errno, on failure.
std::optional<std::wstring> full_path(handle dir, const char* path);

}  // namespace sluice::detail::win32
