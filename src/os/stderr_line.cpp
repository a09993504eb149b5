// write_stderr_line on POSIX: one writev of the message and its newline.
#include "os/stderr_line.hpp"

#include <sys/uio.h>
#include <unistd.h>

namespace sluice::detail {

void write_stderr_line(std::string_view message) noexcept {
  char newline = '\n';
  iovec parts[2] = {{const_cast<char*>(message.data()), message.size()}, {&newline, 1}};
  [[maybe_unused]] auto ignored = ::writev(STDERR_FILENO, parts, 2);
}

}  // namespace sluice::detail
