#include "os/sticky_error.hpp"

#include <utility>

#include "os/error_messages.hpp"

namespace sluice::detail {

void stick(std::exception_ptr& sticky, std::exception_ptr failure) noexcept {
  if (!sticky) sticky = std::move(failure);
}

std::error_code code_of(const std::exception_ptr& sticky) noexcept {
  try {
    std::rethrow_exception(sticky);
  } catch (const std::exception& e) {
    return code_of(e);
  } catch (...) {
    return {EIO, std::generic_category()};
  }
}

void refuse(const std::exception_ptr& sticky, std::string_view operation, std::string_view path) {
  std::error_code code;
  std::string failure;
  try {
    std::rethrow_exception(sticky);
  } catch (const std::exception& e) {
    code = code_of(e);
    failure = failure_text(e, path);
  } catch (...) {
    code = {EIO, std::generic_category()};
    failure = "an unknown failure";
  }
  // std::system_error appends ": <strerror>", which the failure ends with.
  std::string_view cause(failure);
  std::string tail = ": " + code.message();
  if (cause.ends_with(tail)) cause.remove_suffix(tail.size());
  std::string what = describe(operation, path) + " refused after an earlier failure: ";
  what += cause;
  throw std::system_error(code, what);
}

}  // namespace sluice::detail
