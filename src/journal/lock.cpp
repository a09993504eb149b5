#include "journal/lock.hpp"

#include <cerrno>
#include <string>

#include "journal/format.hpp"
#include "journal/lock_holder.hpp"
#include "os/error_messages.hpp"
#include "os/path_text.hpp"
#include "os/sys.hpp"
#include "os/transfer.hpp"

namespace sluice::detail {

file lock_journal(const journal_directory& dir, journal_access access) {
  bool writer = access == journal_access::write;
  file lock;
  try {
    using access = open_request::access;
    lock = dir.open_regular(
        lock_file_name,
        {.mode = writer ? access::read_write : access::read, .create = writer, .permissions = 0666},
        "the journal's lock file");
  } catch (const std::system_error& e) {
    if (!writer && e.code().value() == ENOENT) return {};  // no writer has been here
    throw;
  }
  lock_kind kind = writer ? lock_kind::exclusive : lock_kind::shared;
  if (restart_interrupted([&] { return sys().lock(lock.native_handle(), kind); }) == 0) return lock;
  int error = errno;
  if (error != EWOULDBLOCK) throw_error(error, "lock journal", path_text(dir.path()));
  throw std::system_error(error, std::generic_category(),
                          describe("open journal", path_text(dir.path())) + ": " + who_holds(lock) +
                              "; a journal is opened by one writer, or by readers only, at a time");
}

}  // namespace sluice::detail
