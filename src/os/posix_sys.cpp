// The portable POSIX backend of detail::sys(), for macOS and the BSDs (and
// Linux, to test it): posix::table(), whose entries are in posix_calls.cpp
// and posix_portable.cpp (os/posix_calls.hpp says what each does).
#include "os/posix_calls.hpp"
#include "os/sys.hpp"

namespace sluice::detail {
namespace {

constexpr sys_table real_table = posix::table();

}  // namespace

const sys_table& real_sys() noexcept { return real_table; }

}  // namespace sluice::detail
