// The Win32 backend's entries that Windows has no call for, refused as
// sys.hpp allows: extents, holes and No_COW; unnamed temporaries (a named
// temporary is used); asynchronous writes (write_behind runs on a thread);
// the POSIX metadata group (atomic_replace has a Windows path of its own,
// resolve_target_win32.cpp and atomic_replace_metadata_win32.cpp).
#include <cerrno>

#include "os/win32_errors.hpp"
#include "os/win32_sys.hpp"

namespace sluice::detail::win32 {

int count_extents(handle, std::uint64_t*) { return refuse(EOPNOTSUPP); }
std::int64_t seek_region(handle, std::int64_t, region) { return refuse(EINVAL); }
int set_no_copy_on_write(handle) { return refuse(EOPNOTSUPP); }
int can_link_unnamed(handle) { return refuse(EOPNOTSUPP); }
int link_unnamed(handle, handle, const char*) { return refuse(EOPNOTSUPP); }

int async_open(unsigned, async_queue**) { return refuse(ENOSYS); }
void async_close(async_queue*) {}
int async_register(async_queue*, const io_piece*, unsigned) { return refuse(ENOSYS); }
int async_submit(async_queue*, handle, const void*, unsigned, std::int64_t, int, std::uint64_t) {
  return refuse(ENOSYS);
}
int async_complete(async_queue*, std::uint64_t*, int*) { return refuse(ENOSYS); }
int async_drain(async_queue*) { return refuse(ENOSYS); }

int path_facts(const char*, file_facts*) { return refuse(ENOSYS); }
ssize_t read_link(handle, char*, size_t) { return refuse(ENOSYS); }
int on_procfs(handle) { return refuse(ENOSYS); }
int mount_root(handle) { return refuse(ENOSYS); }
std::uint32_t effective_user() { return 0; }
int set_owner(handle, std::uint32_t, std::uint32_t) { return refuse(ENOSYS); }
int set_mode(handle, unsigned) { return refuse(ENOSYS); }
ssize_t list_attributes(const char*, char*, size_t) { return refuse(ENOSYS); }
ssize_t get_attribute(const char*, const char*, void*, size_t) { return refuse(ENOSYS); }
int set_attribute(handle, const char*, const void*, size_t) { return refuse(ENOSYS); }
int remove_attribute(handle, const char*) { return refuse(ENOSYS); }

}  // namespace sluice::detail::win32
