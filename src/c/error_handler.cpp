// The C API's error handler: a C function behind the C++ error handler
// (<sluice/error.hpp>), which hands it the message as a C string.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <string_view>
#include <system_error>

#include "sluice/c.h"
#include "sluice/error.hpp"

namespace {

std::atomic<sluice_error_handler> c_handler{nullptr};

// Passes the message on as a NUL-terminated copy; one longer than the copy's
// room is cut, never allocated for (a handler must not throw).
void call_c_handler(const std::error_code& code, std::string_view message) noexcept {
  sluice_error_handler handler = c_handler.load();
  if (handler == nullptr) return;
  char text[4096];
  std::size_t length = std::min(message.size(), sizeof text - 1);
  std::memcpy(text, message.data(), length);
  text[length] = '\0';
  handler(code.value(), text);
}

}  // namespace

extern "C" sluice_error_handler sluice_set_error_handler(sluice_error_handler handler) {
  sluice_error_handler previous = c_handler.exchange(handler);
  sluice::set_error_handler(handler != nullptr ? call_c_handler : nullptr);
  return previous;
}
