// find_target and check_directory on Windows: the path given, followed
// while its last component is a symbolic link, as on Linux: each link's
// text read (read_link: its reparse point), a relative one taken from the
// link's directory, and the directory of the end held open with what is at
// its name. A dangling link leads to a new file at its target. No /proc,
// no sticky directories, no link owners to check (making a link needs a
// privilege or Developer Mode): the checks against them have nothing to
// check. docs/platforms.md says what Wine lets the tests show.
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

constexpr int max_links = 40;  // as Linux (Windows itself stops at 63 reparse points)

// "sluice: open '<given>': cannot <what> '<path>': <strerror>"
[[noreturn]] void cannot(int error, const std::filesystem::path& given, const std::string& what,
                         const std::string& path) {
  throw std::system_error(
      error, std::generic_category(),
      describe("open", path_text(given)) + ": cannot " + what + " '" + path + "'");
}

file open_parent(const std::filesystem::path& path, const std::filesystem::path& given) {
  std::string shown = path_text(path.parent_path());
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

// The place `path` (absolute) names: its directory held, its name, and
// what is there.
resolved_target place(const std::filesystem::path& path, const std::filesystem::path& given) {
  resolved_target at;
  at.directory = open_parent(path, given);
  at.name = path_text(path.filename());
  at.path = path_text(path);
  look(at, given);
  return at;
}

// Where the link `link` holds leads: its text, absolute, or joined to the
// link's own directory; "." and ".." taken out as Windows does, by the text.
std::filesystem::path target_of(const resolved_target& link, const std::filesystem::path& given) {
  std::string text(3 * 32768, '\0');  // the longest Windows path, 3 UTF-8 bytes a UTF-16 unit
  ssize_t size = sys().read_link(link.existing.native_handle(), text.data(), text.size());
  if (size < 0) cannot(errno, given, "read the symbolic link", link.path);
  text.resize(static_cast<std::size_t>(size));
  std::filesystem::path target(std::u8string(text.begin(), text.end()));
  std::filesystem::path from = std::filesystem::path(link.path).parent_path();
  return (target.is_absolute() ? target : from / target).lexically_normal();
}

}  // namespace

resolved_target find_target(const std::filesystem::path& given, target_use use) {
  resolved_target at = place(given, given);
  for (int links = 0; at.status && at.status->type == file_type::symlink; ++links) {
    if (links == max_links)
      throw std::system_error(
          ELOOP, std::generic_category(),
          describe("open", path_text(given)) + ": more than 40 symbolic links to follow");
    at = place(target_of(at, given), given);
  }
  if (use == target_use::replace && at.status && at.status->type != file_type::regular)
    throw std::system_error(
        EINVAL, std::generic_category(),
        describe("open", path_text(given)) + ": atomic_replace needs a regular file, and " +
            (at.path == path_text(given) ? std::string("this") : "'" + at.path + "'") +
            " is not one");
  return at;
}

void check_directory(const std::filesystem::path&, const resolved_target&, const file&) {}

}  // namespace sluice::detail
