// find_target and check_directory on Windows: the path given, its
// directory held open, and what is at its name now. No link is followed by
// hand: Windows has none of the checks Linux makes on a link (its owner,
// protected_symlinks), so atomic_replace refuses a symbolic link at the
// path rather than replace the file it leads to; a writer that opens the
// name leaves the link to CreateFileW (docs/platforms.md). No /proc, no
// sticky directories: the checks against them have nothing to check.
#include <cerrno>
#include <string>
#include <system_error>
#include <utility>

#include "os/error_messages.hpp"
#include "os/path_text.hpp"
#include "os/sys.hpp"
#include "os/transfer.hpp"
#include "writer/resolve_target.hpp"

namespace sluice::detail {
namespace {

// "sluice: open '<given>': cannot <what> '<path>': <strerror>"
[[noreturn]] void cannot(int error, const std::filesystem::path& given, const std::string& what,
                         const std::string& path) {
  throw std::system_error(
      error, std::generic_category(),
      describe("open", path_text(given)) + ": cannot " + what + " '" + path + "'");
}

// "sluice: open '<path>': <why>", EINVAL.
[[noreturn]] void refused(const std::string& path, const std::string& why) {
  throw std::system_error(EINVAL, std::generic_category(), describe("open", path) + ": " + why);
}

file open_parent(const std::filesystem::path& given) {
  std::string shown = path_text(given.parent_path());
  handle h = restart_interrupted(
      [&] { return sys().open(working_directory, shown.c_str(), {.directory = true}); });
  if (h == no_handle()) cannot(errno, given, "open the directory", shown);
  return file(h, std::move(shown));
}

// What is at the name now, not following a link (a query handle, which
// needs no access to the file's content); nothing if the name is free.
void look(resolved_target& at, const std::filesystem::path& given) {
  handle h = restart_interrupted([&] {
    return sys().open(at.directory.native_handle(), at.name.c_str(),
                      {.mode = open_request::access::path_only, .no_follow = true});
  });
  if (h == no_handle()) {
    if (errno == ENOENT) return;
    cannot(errno, given, "open", at.path);
  }
  at.existing = file(h, at.path);
  file_facts facts;
  if (sys().facts(h, &facts) != 0) cannot(errno, given, "read the file information of", at.path);
  at.status = facts;
}

}  // namespace

resolved_target find_target(const std::filesystem::path& given, target_use use) {
  resolved_target at;
  at.directory = open_parent(given);
  at.name = path_text(given.filename());
  at.path = path_text(given);
  look(at, given);
  if (use != target_use::replace || !at.status) return at;
  if (at.status->type == file_type::symlink)
    refused(at.path,
            "a symbolic link at the path is not followed by atomic_replace on Windows; name the "
            "file it leads to");
  if (at.status->type != file_type::regular)
    refused(at.path, "atomic_replace needs a regular file, and this is not one");
  return at;
}

void check_directory(const std::filesystem::path&, const resolved_target&, const file&) {}

}  // namespace sluice::detail
