// write_error, the error handler, and the message format every error uses.
#include <atomic>
#include <cerrno>
#include <new>
#include <string>

#include "os/error_messages.hpp"
#include "os/stderr_line.hpp"

namespace sluice {
namespace {

// The default handler: one line on standard error (os/stderr_line.hpp).
void print_to_stderr(const std::error_code&, std::string_view message) noexcept {
  detail::write_stderr_line(message);
}

std::atomic<error_handler> installed{print_to_stderr};

}  // namespace

write_error::write_error(int errno_value, const std::string& what, std::uint64_t offset,
                         std::uint64_t bytes_written)
    : std::system_error(errno_value, std::generic_category(), what),
      offset_(offset),
      bytes_written_(bytes_written) {}

error_handler set_error_handler(error_handler handler) noexcept {
  return installed.exchange(handler ? handler : print_to_stderr);
}

namespace detail {

void report_error(const std::error_code& code, std::string_view message) noexcept {
  installed.load()(code, message);
}

std::string describe(std::string_view operation, std::string_view path) {
  std::string text(message_prefix);
  text += operation;
  text += " '";
  text += path;
  text += '\'';
  return text;
}

std::string describe(std::string_view operation, std::string_view path, std::uint64_t offset) {
  return describe(operation, path) + " at offset " + std::to_string(offset);
}

void throw_error(int errno_value, std::string_view operation, std::string_view path) {
  throw std::system_error(errno_value, std::generic_category(), describe(operation, path));
}

void throw_error(int errno_value, std::string_view operation, std::string_view path,
                 std::uint64_t offset) {
  throw std::system_error(errno_value, std::generic_category(), describe(operation, path, offset));
}

write_error write_failed(int errno_value, std::string_view path, std::uint64_t offset,
                         std::uint64_t written, std::string_view note) {
  std::uint64_t failed_at = offset + written;
  return write_error(errno_value, describe("write", path, failed_at).append(note), failed_at,
                     written);
}

std::error_code code_of(const std::exception& failure) noexcept {
  if (const auto* error = dynamic_cast<const std::system_error*>(&failure)) return error->code();
  int value = dynamic_cast<const std::bad_alloc*>(&failure) ? ENOMEM : EIO;
  return {value, std::generic_category()};
}

std::string failure_text(const std::exception& failure, std::string_view path) {
  std::string_view what = failure.what();
  if (what.starts_with(message_prefix)) what.remove_prefix(message_prefix.size());
  std::string own_write = "write '" + std::string(path) + "' ";
  if (dynamic_cast<const write_error*>(&failure) && what.starts_with(own_write))
    return "write " + std::string(what.substr(own_write.size()));
  return std::string(what);
}

void report_from_destructor(std::string_view path, const std::exception& failure,
                            std::size_t lost) noexcept {
  std::error_code code = code_of(failure);
  try {
    std::string message = describe("close", path) + " in its destructor";
    if (lost) message += ", " + std::to_string(lost) + " bytes lost";
    report_error(code, message + ": " + failure_text(failure, path));
  } catch (...) {  // no memory for the message: the code alone
    report_error(code, "sluice: a destructor failed to close its file");
  }
}

void report_close_from_destructor(std::string_view path, int close_errno) noexcept {
  try {
    report_from_destructor(
        path, std::system_error(close_errno, std::generic_category(), describe("close", path)));
  } catch (...) {  // no memory for the message: the code alone
    report_error({close_errno, std::generic_category()},
                 "sluice: a destructor failed to close its file");
  }
}

void report_close_after_failure(std::string_view path, const std::error_code& code) noexcept {
  try {
    report_error(code, describe("close", path) + " after an earlier failure: " + code.message());
  } catch (...) {
    report_error(code, "sluice: a close failed after an earlier failure");
  }
}

}  // namespace detail
void detail::throw_open_failure(int error, std::string_view path, bool direct) {
  if (!direct || error != EINVAL) throw_error(error, "open", path);
  throw std::system_error(EINVAL, std::generic_category(),
                          describe("open", path) +
                              ": the filesystem refuses O_DIRECT, or this is not a file direct "
                              "I/O can write");
}

}  // namespace sluice
