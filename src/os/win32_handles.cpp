// The Win32 backend's table of the handles it opened, the handles it opens
// for itself, and its paths: UTF-8 to UTF-16 and back, names joined to a
// held directory's path.
#include "os/win32_handles.hpp"

#include <windows.h>

#include <cerrno>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <utility>

#include "os/win32_errors.hpp"

namespace sluice::detail::win32 {
namespace {

std::shared_mutex table_lock;
std::unordered_map<handle, handle_facts>& table() {
  static std::unordered_map<handle, handle_facts> handles;
  return handles;
}

// The path Windows reports for `h`, without the "\\?\" prefix it adds.
std::optional<std::wstring> final_path(handle h) {
  std::wstring path(MAX_PATH, L'\0');
  for (;;) {
    DWORD size = ::GetFinalPathNameByHandleW(h, path.data(), static_cast<DWORD>(path.size()),
                                             FILE_NAME_NORMALIZED);
    if (size == 0) {
      fail_last();
      return std::nullopt;
    }
    if (size < path.size()) {
      path.resize(size);
      break;
    }
    path.resize(size);
  }
  if (path.starts_with(L"\\\\?\\UNC\\")) return L"\\" + path.substr(7);
  if (path.starts_with(L"\\\\?\\")) return path.substr(4);
  return path;
}

}  // namespace

owned_handle::~owned_handle() {
  if (handle_ == no_handle()) return;
  DWORD error = ::GetLastError();
  ::CloseHandle(handle_);
  ::SetLastError(error);
}

void remember(handle h, handle_facts facts) {
  std::unique_lock lock(table_lock);
  table().insert_or_assign(h, std::move(facts));
}

void forget(handle h) noexcept {
  std::unique_lock lock(table_lock);
  table().erase(h);
}

std::optional<handle_facts> recall(handle h) {
  std::shared_lock lock(table_lock);
  auto found = table().find(h);
  if (found == table().end()) return std::nullopt;
  return found->second;
}

bool update(handle h, const std::function<void(handle_facts&)>& change) {
  std::unique_lock lock(table_lock);
  auto found = table().find(h);
  if (found == table().end()) return false;
  change(found->second);
  return true;
}

std::optional<std::wstring> widen(const char* text) {
  int size = ::MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, text, -1, nullptr, 0);
  if (size <= 0) {
    errno = EINVAL;
    return std::nullopt;
  }
  std::wstring wide(static_cast<std::size_t>(size), L'\0');
  ::MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, text, -1, wide.data(), size);
  wide.pop_back();  // the terminating NUL
  return wide;
}

std::string narrow(const wchar_t* text, std::size_t size) {
  int length = static_cast<int>(size);
  int bytes = ::WideCharToMultiByte(CP_UTF8, 0, text, length, nullptr, 0, nullptr, nullptr);
  std::string utf8(static_cast<std::size_t>(bytes > 0 ? bytes : 0), '\0');
  if (bytes > 0)
    ::WideCharToMultiByte(CP_UTF8, 0, text, length, utf8.data(), bytes, nullptr, nullptr);
  return utf8;
}

std::optional<std::wstring> full_path(handle dir, const char* path) {
  std::optional<std::wstring> name = widen(path);
  if (!name || dir == working_directory) return name;
  std::optional<std::wstring> base;
  if (std::optional<handle_facts> facts = recall(dir)) base = facts->path;
  if (!base) base = final_path(dir);
  if (!base) return std::nullopt;
  if (*name == L".") return base;
  if (!base->empty() && base->back() != L'\\' && base->back() != L'/') *base += L'\\';
  return *base + *name;
}

}  // namespace sluice::detail::win32
