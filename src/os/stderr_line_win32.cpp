// write_stderr_line on Windows: WriteFile to the standard error handle, the
// message and its newline copied into one buffer when they fit in 4 KiB
// (one call), else two calls.
#include <windows.h>

#include <cstring>

#include "os/stderr_line.hpp"

namespace sluice::detail {
namespace {

void write_all(HANDLE out, const char* bytes, std::size_t size) noexcept {
  while (size > 0) {
    DWORD chunk = size > 0x40000000 ? 0x40000000 : static_cast<DWORD>(size);
    DWORD written = 0;
    if (!::WriteFile(out, bytes, chunk, &written, nullptr) || written == 0) return;
    bytes += written;
    size -= written;
  }
}

}  // namespace

void write_stderr_line(std::string_view message) noexcept {
  HANDLE out = ::GetStdHandle(STD_ERROR_HANDLE);
  if (out == nullptr || out == INVALID_HANDLE_VALUE) return;
  char line[4096];
  if (message.size() < sizeof line) {
    std::memcpy(line, message.data(), message.size());
    line[message.size()] = '\n';
    write_all(out, line, message.size() + 1);
    return;
  }
  write_all(out, message.data(), message.size());
  write_all(out, "\n", 1);
}

}  // namespace sluice::detail
