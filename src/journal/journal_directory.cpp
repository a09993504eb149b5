#include "journal/journal_directory.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <thread>

#include "os/directory.hpp"
#include "os/error_messages.hpp"
#include "os/path_text.hpp"
#include "os/sys.hpp"
#include "os/transfer.hpp"

namespace sluice::detail {
namespace {

// Appends the names of one list_directory buffer (each ended by a NUL).
void parse_entries(const char* buffer, std::size_t size, std::vector<std::string>& names) {
  for (std::size_t at = 0; at < size;) {
    std::string name(buffer + at);
    at += name.size() + 1;
    if (name != "." && name != "..") names.push_back(std::move(name));
  }
}

// What a file that is not a regular one is, for messages.
const char* kind_of(file_type type) {
  switch (type) {
    case file_type::directory: return "a directory";
    case file_type::fifo: return "a FIFO";
    case file_type::character_device: return "a character device";
    case file_type::block_device: return "a block device";
    case file_type::socket: return "a socket";
    default: return "not a regular file";
  }
}

[[noreturn]] void throw_not_regular(const std::filesystem::path& path, const char* kind,
                                    const char* what) {
  throw std::system_error(EINVAL, std::generic_category(),
                          describe("open", path_text(path)) + ": it is " + kind + ", not " + what);
}

// open(dir, name, how + non_blocking, no_follow), tried again while a lease
// on the file is being broken (EWOULDBLOCK): see open_regular().
handle open_without_blocking(handle dir, const std::string& name, open_request how) {
  how.non_blocking = how.no_follow = true;
  auto pause = std::chrono::milliseconds(1);
  for (;;) {
    detail::handle fd = restart_interrupted([&] { return sys().open(dir, name.c_str(), how); });
    if (fd != detail::no_handle() || errno != EWOULDBLOCK) return fd;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(100));
  }
}

}  // namespace

journal_directory::journal_directory(const std::filesystem::path& path)
    : handle_(open_directory(path)), path_(path) {}

std::vector<std::string> journal_directory::list() const {
  detail::handle fd = restart_interrupted(
      [&] { return sys().open(handle_.native_handle(), ".", {.directory = true}); });
  if (fd == detail::no_handle()) throw_error(errno, "open directory", path_text(path_));
  file listing(fd, path_text(path_));
  std::vector<std::string> names;
  std::vector<char> buffer(32 * 1024);
  for (;;) {
    ssize_t n = sys().list_directory(fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw_error(errno, "list directory", path_text(path_));
    if (n == 0) break;
    parse_entries(buffer.data(), static_cast<std::size_t>(n), names);
  }
  listing.close();
  return names;
}

file journal_directory::open_regular(std::string_view name, open_request how,
                                     const char* what) const {
  std::filesystem::path path = path_of(name);
  detail::handle fd = open_without_blocking(handle_.native_handle(), std::string(name), how);
  if (fd == detail::no_handle() && errno == ELOOP) throw_not_regular(path, "a symbolic link", what);
  if (fd == detail::no_handle()) throw_error(errno, "open", path_text(path));
  file opened(fd, path_text(path));
  file_facts facts;
  if (sys().facts(fd, &facts) != 0) throw_error(errno, "stat", path_text(path));
  if (facts.type != file_type::regular) throw_not_regular(path, kind_of(facts.type), what);
  // Clears non_blocking, the one state flag it was opened with.
  if (sys().set_state(fd, {}) != 0) throw_error(errno, "fcntl", path_text(path));
  return opened;
}

void journal_directory::rename(std::string_view from, std::string_view to) const {
  detail::handle dir = handle_.native_handle();
  if (sys().rename(dir, std::string(from).c_str(), dir, std::string(to).c_str()) != 0)
    throw_error(errno, "rename", path_text(path_of(from)));
}

void journal_directory::remove(std::string_view name) const {
  if (sys().remove(handle_.native_handle(), std::string(name).c_str()) != 0)
    throw_error(errno, "remove", path_text(path_of(name)));
}

void journal_directory::sync() const {
  if (sys().sync_directory(handle_.native_handle()) != 0)
    throw_error(errno, "fsync directory", path_text(path_));
}

bool make_directory(const std::filesystem::path& dir) {
  bool created = sys().make_directory(path_text(dir).c_str(), 0700) == 0;
  if (!created) {
    if (errno != EEXIST) throw_error(errno, "create directory", path_text(dir));
    open_directory(dir).close();  // ENOTDIR if it is something else
  }
  // Also when it existed: its creator may have died before this sync.
  std::filesystem::path parent = dir.parent_path();
  sync_directory(parent.empty() ? "." : parent);
  return created;
}

}  // namespace sluice::detail
