// atomic_replace's platform steps on POSIX: by name, O_DIRECT set once the
// temporary exists.
#include "writer/atomic_replace_steps.hpp"

#include <cerrno>
#include <system_error>

#include "os/error_messages.hpp"

namespace sluice::detail::temporary_steps {

// O_DIRECT comes after creation (after_creation), so that a filesystem
// refusing it is told from one refusing the temporary; the name decides
// the rename and the removal, not the handle.
void ask_at_creation(open_request& how, bool) noexcept {
  how.direct = false;
  how.deletable = false;
}

// An EINVAL can only be the filesystem refusing O_DIRECT: the temporary
// exists, so the directory took it.
void after_creation(file& temporary, bool direct) {
  if (!direct || sys().set_state(temporary.native_handle(), {.direct = true}) == 0) return;
  int error = errno;
  throw std::system_error(
      error, std::generic_category(),
      describe("open", temporary.path()) +
          (error == EINVAL ? ": the filesystem refuses O_DIRECT (caching::direct)"
                           : ": cannot set O_DIRECT on the temporary file"));
}

int rename_over(file& temporary, const replacement& rest) {
  temporary.close();
  handle dir = rest.directory.native_handle();
  return sys().rename(dir, rest.name.c_str(), dir, rest.destination.c_str());
}

void after_rename(file&, const replacement&) {}

bool delete_held(file&, const replacement&) noexcept { return false; }

}  // namespace sluice::detail::temporary_steps
