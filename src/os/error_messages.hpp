// The messages every sluice error carries, and the helpers that throw and
// report them (the public side, write_error and the error handler, is in
// sluice/error.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>

#include "sluice/error.hpp"

namespace sluice::detail {

// Reports through the installed handler; never throws.
void report_error(const std::error_code& code, std::string_view message) noexcept;
// What every error message of sluice starts with.
inline constexpr std::string_view message_prefix = "sluice: ";
// "sluice: <operation> '<path>'" - the what() prefix every error uses.
std::string describe(std::string_view operation, std::string_view path);
// "sluice: <operation> '<path>' at offset <offset>"
std::string describe(std::string_view operation, std::string_view path, std::uint64_t offset);
// Throw std::system_error(errno_value, describe(...)).
[[noreturn]] void throw_error(int errno_value, std::string_view operation, std::string_view path);
[[noreturn]] void throw_error(int errno_value, std::string_view operation, std::string_view path,
                              std::uint64_t offset);
// The write_error of a write at `offset` to `path` that failed with
// `errno_value` after `written` bytes: "sluice: write '<path>' at offset
// <offset + written><note>: <strerror>".
write_error write_failed(int errno_value, std::string_view path, std::uint64_t offset,
                         std::uint64_t written, std::string_view note = {});

// The errno a failure carries: a std::system_error's code, ENOMEM for
// std::bad_alloc, EIO for anything else.
std::error_code code_of(const std::exception& failure) noexcept;

// What went wrong, for a message that already names `path` (a refusal, a
// destructor's report): `failure`'s what() without the "sluice: " prefix,
// "fdatasync 'out.bin': Input/output error", and for a write to `path`
// itself without the path again, "write at offset 4096: No space left on
// device".
std::string failure_text(const std::exception& failure, std::string_view path);

// The one report of a destructor (of a file, a writer, a journal) whose
// close of `path` failed with `failure`, which no call had thrown: through
// the error handler, with failure's code,
//   sluice: close '<path>' in its destructor[, <lost> bytes lost]: <failure_text>
// Never throws.
void report_from_destructor(std::string_view path, const std::exception& failure,
                            std::size_t lost = 0) noexcept;

// report_from_destructor() of a close(2) of `path` that failed with
// `close_errno`: "sluice: close '<path>' in its destructor: close '<path>':
// <strerror>". Never throws.
void report_close_from_destructor(std::string_view path, int close_errno) noexcept;

// The report of a close(2) of `path` that failed with `code` after an
// earlier failure, which close() throws instead (the OS may have dropped
// bytes it had accepted, which that failure does not say):
//   sluice: close '<path>' after an earlier failure: <strerror>
// Never throws.
void report_close_after_failure(std::string_view path, const std::error_code& code) noexcept;

// Throws the failure `error` of an open of `path`; `direct`: it asked for
// O_DIRECT, which a filesystem that refuses it fails with EINVAL, and the
// message says so ("the filesystem refuses O_DIRECT, or this is not a file
// direct I/O can write": a FIFO, say).
[[noreturn]] void throw_open_failure(int error, std::string_view path, bool direct);

}  // namespace sluice::detail
