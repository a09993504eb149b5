// Atomic replacement of a file: the new content is written to a temporary
// file in the target's directory, which only install() puts in the target's
// place. Used by writer_options::atomic_replace.
#pragma once

#include <filesystem>
#include <string>

#include "sluice/file.hpp"

namespace sluice::detail {

// An open temporary: `target` takes the writes (its path() is the target's,
// for messages); `name` is the temporary's own path, empty while it has none
// (O_TMPFILE).
struct temporary {
  file target;
  std::string name;
};

// Opens a temporary beside `target`, made absolute first: an unnamed
// O_TMPFILE where the filesystem supports it and /proc/self/fd can name it
// (one stat), else `.<target's name>.sluice-tmp-<8 hex digits>` created
// exclusively. It gets the permission bits of the file it will replace (or
// 0666), minus the umask; `direct` adds O_DIRECT. Throws like file::open,
// naming the absolute target.
temporary open_temporary(const std::filesystem::path& target, bool direct);

// Makes the temporary's content the target's: fsync, a name (linkat) if it
// has none, rename over the target, close, fsync of the directory. Each step
// that fails throws naming its operation. Up to the rename the target keeps
// its old content and the temporary is left for discard(); after it, the new
// content is in place but, if the directory sync failed, not surely durable.
void install(file& target, std::string& name);

// Closes the temporary and removes its name, if it has one. Never throws: it
// runs when the content is being given up, after an error or by choice.
void discard(file& target, const std::string& name) noexcept;

// The prefix of every named temporary for `target`, to recognise leftovers
// of a killed process: ".<filename>.sluice-tmp-", the filename cut so that
// the prefix and 8 more characters fit in NAME_MAX (255 bytes).
std::string temporary_prefix(const std::filesystem::path& target);

}  // namespace sluice::detail
