// sluice::writer: how it opens its path, for each option that changes it
// (atomic_replace, durability_mode::all_on_close, caching_mode::direct).
#include <cerrno>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

#include "os/directory.hpp"
#include "os/error_messages.hpp"
#include "os/path_text.hpp"
#include "os/sys.hpp"
#include "os/transfer.hpp"
#include "sluice/writer.hpp"
#include "writer/atomic_replace.hpp"
#include "writer/resolve_target.hpp"

namespace sluice {
namespace {

// all_on_close: opens of a path that keeps disappearing between the checks
// and the open (another process creating and removing it) before giving up.
constexpr int synced_open_attempts = 10;

// open(dir, name, how) for writing (permissions 0666), direct if `direct`:
// the handle, or detail::no_handle() with errno.
detail::handle open_for_writing(detail::handle dir, const char* name, detail::open_request how,
                                bool direct) {
  how.mode = detail::open_request::access::write;
  how.direct = direct;
  how.permissions = 0666;
  return detail::restart_interrupted([&] { return detail::sys().open(dir, name, how); });
}

// What an all_on_close writer opened: the file, the directory to sync at
// close if it created the file, and whether the file still holds its old
// content (opened without O_TRUNC, to be emptied once the writer's memory
// is allocated).
struct synced_open {
  file target;
  file directory;
  bool old_content = false;
};

// One attempt at opening the file find_target resolved, through the
// directory it holds: created (O_EXCL) with its directory kept for the sync
// at close, or, if it exists, opened without O_CREAT (and without following
// a link, but the /proc link it may be), emptied unless `keep`. Nothing if
// it was removed, or replaced by a link, since it was resolved.
std::optional<synced_open> open_resolved(const std::filesystem::path& path,
                                         const std::filesystem::path& absolute,
                                         const detail::resolved_target& where, bool direct,
                                         bool keep) {
  std::optional<std::system_error> cannot_sync;
  synced_open opened;
  try {
    opened.directory = detail::open_directory_to_sync(absolute, where.directory);
  } catch (const std::system_error& e) {
    cannot_sync = e;
  }
  std::string shown =
      detail::path_text(path);  // before the open: nothing may throw between it and the file
  if (!cannot_sync) {
    detail::handle fd = open_for_writing(opened.directory.native_handle(), where.name.c_str(),
                                         {.create = true, .exclusive = true}, direct);
    if (fd != detail::no_handle()) {
      opened.target = file(fd, std::move(shown));
      return opened;
    }
    if (errno != EEXIST) detail::throw_open_failure(errno, detail::path_text(path), direct);
    opened.directory = file();  // an existing file needs no directory sync
  }
  detail::open_request how{.truncate = !keep, .no_follow = !where.descriptor_link};
  detail::handle fd =
      open_for_writing(where.directory.native_handle(), where.name.c_str(), how, direct);
  if (fd != detail::no_handle()) {
    opened.target = file(fd, std::move(shown));
    opened.old_content = keep;
    return opened;
  }
  int error = errno;
  if (error == ENOENT && cannot_sync) throw *cannot_sync;
  if (error == ENOENT || (error == ELOOP && !where.descriptor_link)) return std::nullopt;
  detail::throw_open_failure(error, detail::path_text(path), direct);
}

}  // namespace

// Opens what the writer writes to: a temporary beside `path` for
// atomic_replace, else `path` itself, with O_DIRECT for caching_mode::direct.
// Returns whether the file still holds its old content, to be emptied once
// every allocation that can fail has succeeded: caching_mode::direct and
// write_behind open an existing file without O_TRUNC, as the buffer may
// have to be allocated again for the alignment, and the write-behind
// engine allocates its buffers once the file is open.
bool writer::open_target(const std::filesystem::path& path, const writer_options& options) {
  bool direct = options.caching == caching_mode::direct;
  bool keep = direct || options.write_behind;
  if (options.atomic_replace) {
    open_replacement(path, direct);
    return false;
  }
  if (options.durability == durability_mode::all_on_close) return open_synced(path, direct, keep);
  if (!keep) {
    target_ = file::open(path);
    return false;
  }
  std::string shown = detail::path_text(path);
  detail::handle fd = open_for_writing(detail::working_directory, detail::path_text(path).c_str(),
                                       {.create = true}, direct);
  if (fd == detail::no_handle()) detail::throw_open_failure(errno, detail::path_text(path), direct);
  target_ = file(fd, std::move(shown));
  return true;
}

void writer::open_replacement(const std::filesystem::path& path, bool direct) {
  auto rest = std::make_unique<detail::replacement>();  // allocated before anything is created
  detail::temporary opened = detail::open_temporary(path, direct);
  target_ = std::move(opened.target);
  *rest = std::move(opened.rest);
  modes_.replacing = std::move(rest);
}

// durability_mode::all_on_close: the path resolved as atomic_replace resolves
// it, then a file this writer creates (O_EXCL, in the directory resolved)
// has that directory synced at close, through a descriptor opened before
// the file is created, so that a directory that cannot be read (mode 0300)
// fails here, with nothing created. An existing file needs no directory
// sync: it is written even there. A file that disappears between the two
// opens is resolved and created again, a few times at most.
bool writer::open_synced(const std::filesystem::path& path, bool direct, bool keep) {
  std::filesystem::path absolute = detail::absolute_path(path);
  for (int attempt = 0; attempt < synced_open_attempts; ++attempt) {
    detail::resolved_target where = detail::find_target(absolute, detail::target_use::open);
    std::optional<synced_open> opened = open_resolved(path, absolute, where, direct, keep);
    if (!opened) continue;
    target_ = std::move(opened->target);
    modes_.directory = std::move(opened->directory);
    return opened->old_content;
  }
  throw std::system_error(EAGAIN, std::generic_category(),
                          detail::describe("open", detail::path_text(path)) +
                              ": the file keeps appearing and disappearing (tried " +
                              std::to_string(synced_open_attempts) + " times)");
}

}  // namespace sluice
