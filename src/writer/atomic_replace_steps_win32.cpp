// atomic_replace's platform steps on Windows: through the temporary's own
// handle, FILE_FLAG_NO_BUFFERING chosen at its creation.
#include <system_error>

#include "os/error_messages.hpp"
#include "writer/atomic_replace_steps.hpp"

namespace sluice::detail::temporary_steps {

void ask_at_creation(open_request& how, bool direct) noexcept {
  how.direct = direct;
  how.deletable = true;  // for rename_held and remove_held
}

void after_creation(file&, bool) {}

int rename_over(file& temporary, const replacement& rest) {
  return sys().rename_held(temporary.native_handle(), rest.directory.native_handle(),
                           rest.destination.c_str());
}

// The handle the rename went through. Everything was flushed before the
// rename, so a failed close loses nothing: the directory is still synced,
// and the error says that the new content is in place, and whether the
// rename may not survive a power loss.
void after_rename(file& temporary, const replacement& rest) {
  try {
    temporary.close();
  } catch (const std::system_error& e) {
    bool synced = sys().sync_directory(rest.directory.native_handle()) == 0;
    throw std::system_error(
        e.code(), describe("close", temporary.path()) + ": the rename over '" +
                      rest.destination_path +
                      "' is done, but the new file's handle could not be closed" +
                      (synced ? ""
                              : ", nor its directory synced: the rename may not survive "
                                "a power loss"));
  }
}

// Not after a rename that may have been done (rename_uncertain): the handle
// may then hold the destination.
bool delete_held(file& temporary, const replacement& rest) noexcept {
  if (!temporary.is_open() || rest.name.empty() || rest.rename_uncertain) return false;
  return sys().remove_held(temporary.native_handle()) == 0;
}

}  // namespace sluice::detail::temporary_steps
