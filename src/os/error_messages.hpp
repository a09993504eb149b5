// The messages every sluice error carries, and the helpers that throw and
// report them (the public side, write_error and the error handler, is in
// sluice/error.hpp).
#pragma once

#include <cstdint>
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

// Throws the failure `error` of an open of `path`; `direct`: it asked for
// O_DIRECT, which a filesystem that refuses it fails with EINVAL, and the
// message says so ("the filesystem refuses O_DIRECT, or this is not a file
// direct I/O can write": a FIFO, say).
[[noreturn]] void throw_open_failure(int error, std::string_view path, bool direct);

}  // namespace sluice::detail
