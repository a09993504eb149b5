// sluice/error.hpp - how sluice reports failure.
//
// Every failing operation throws std::system_error whose code() is the errno
// and whose what() names the operation, the path and, for transfers, the
// offset:   sluice: write 'out.bin' at offset 4096: No space left on device
//
// Writes throw the subclass write_error, which also says how far the write
// got: the bytes before offset() reached the file, nothing at or after it did.
//
// Destructors never throw. When one has to close a file and that fails, or
// has to drop bytes it could not write, it calls the error handler, once per
// failure nobody has seen: a file, writer or journal destroyed after it threw
// an error to its caller does not report that error again.
//
// A failure that leaves a file (a failed sync), a writer (any failure) or a
// journal (a failed write or sync) unusable sticks. A writer's later calls
// throw it again as it was (a write_error keeps its offset()); a file's and
// a journal's are refused with its errno and one message form:
//   sluice: write 'a' refused after an earlier failure: fdatasync 'a': Input/output error
// close() on any of the three throws the failure itself again and closes; a
// close(2) that fails after it goes to the error handler. The default
// handler prints one line on stderr; install your own to log it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>

namespace sluice {

class write_error : public std::system_error {
 public:
  write_error(int errno_value, const std::string& what, std::uint64_t offset,
              std::uint64_t bytes_written);

  // File offset of the first byte that was not written.
  std::uint64_t offset() const noexcept { return offset_; }
  // Bytes of the failed request that did reach the file before the failure.
  std::uint64_t bytes_written() const noexcept { return bytes_written_; }

 private:
  std::uint64_t offset_;
  std::uint64_t bytes_written_;
};

// Called by destructors with the error and a one-line message such as
//   sluice: close 'a' in its destructor, 40 bytes lost: write at offset 80: Input/output error
//   sluice: close 'a' in its destructor: fdatasync 'a': Input/output error
//   sluice: close 'a' in its destructor: close 'a': Input/output error
//   sluice: close 'a' after an earlier failure: Input/output error
// (the second from a sync that failed: the data may not be durable; the
// third from a close(2) that failed: the OS may have dropped bytes it had
// accepted; the fourth the same, after the failure close() threw or the
// destructor reported). It must not throw.
using error_handler = void (*)(const std::error_code& code, std::string_view message) noexcept;

// Installs `handler` (nullptr restores the default, which writes the message and
// a newline to stderr) and returns the one it replaces. Thread-safe.
error_handler set_error_handler(error_handler handler) noexcept;

}  // namespace sluice
