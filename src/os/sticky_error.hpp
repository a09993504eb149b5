// The sticky error of a file, a writer and a journal: the first failure
// that leaves one unusable (a failed sync, a failed write of a writer or a
// journal), kept in an std::exception_ptr so that it is thrown again whole,
// with its type (a write_error's offset() and bytes_written()), its errno
// and its message. These functions are the only ones that set it, refuse a
// call after it and report it.
//
// One message form for every refusal:
//   sluice: <operation> '<path>' refused after an earlier failure: <failure>
// where <failure> is the first failure as failure_text() (error_messages.hpp)
// gives it,
// e.g. "sluice: write 'out.bin' refused after an earlier failure: fdatasync
// 'out.bin': Input/output error"; code() is the first failure's errno.
//
// Not synchronized: a journal keeps its sticky error under its mutex.
#pragma once

#include <exception>
#include <string_view>
#include <system_error>

namespace sluice::detail {

// Keeps `failure` in `sticky` unless `sticky` holds an earlier one (the
// first failure is the one that counts). noexcept: nothing is allocated.
void stick(std::exception_ptr& sticky, std::exception_ptr failure) noexcept;

// Throws the refusal of `operation` on `path` after the failure `sticky`
// holds (not null): a std::system_error with that failure's code, in the
// form above.
[[noreturn]] void refuse(const std::exception_ptr& sticky, std::string_view operation,
                         std::string_view path);

// The errno of the failure `sticky` holds (not null), as code_of() in
// error_messages.hpp tells it.
std::error_code code_of(const std::exception_ptr& sticky) noexcept;

}  // namespace sluice::detail
