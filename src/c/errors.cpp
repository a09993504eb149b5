// The C API's per-thread last error, and the mapping of C++ failures to
// errno values.
#include "c/errors.hpp"

#include <cerrno>
#include <new>
#include <stdexcept>
#include <string>
#include <system_error>

#include "sluice/c.h"

namespace sluice::detail::c_api {
namespace {

thread_local std::string last_message;
thread_local const char* last_fixed = "";  // used when last_message could not be stored

void keep(std::string_view message) noexcept {
  try {
    last_message.assign(message);
    last_fixed = nullptr;
  } catch (...) {
    last_fixed = "sluice: out of memory while keeping an error message";
  }
}

}  // namespace

int fail(int error, std::string_view message) noexcept {
  keep(message);
  return error;
}

int fail_with_current_exception() noexcept {
  try {
    throw;
  } catch (const std::system_error& e) {
    int value = e.code().value();
    return fail(value > 0 ? value : EIO, e.what());
  } catch (const std::bad_alloc&) {
    return fail(ENOMEM, "sluice: out of memory");
  } catch (const std::length_error&) {
    return fail(ENOMEM, "sluice: out of memory (a size beyond what can be allocated)");
  } catch (const std::exception& e) {
    return fail(EIO, e.what());
  } catch (...) {
    return fail(EIO, "sluice: an unknown failure");
  }
}

int invalid_argument(std::string_view function, std::string_view what) noexcept {
  try {
    std::string message = "sluice: ";
    message += function;
    message += ": ";
    message += what;
    return fail(EINVAL, message);
  } catch (...) {
    return fail(EINVAL, "sluice: an invalid argument");
  }
}

}  // namespace sluice::detail::c_api

extern "C" const char* sluice_last_error(void) {
  using sluice::detail::c_api::last_fixed, sluice::detail::c_api::last_message;
  return last_fixed != nullptr ? last_fixed : last_message.c_str();
}
