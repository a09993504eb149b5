// The Win32 backend's entries that live outside win32_sys.cpp, for its
// table: names and directories (win32_names.cpp) and the entries Windows
// refuses (win32_refused.cpp) and atomic_replace's security copy
// (win32_security.cpp). Each has the contract written in sys.hpp.
#pragma once

#include "os/sys.hpp"

namespace sluice::detail::win32 {

// win32_names.cpp
int sync_directory(handle dir);
int rename(handle from_dir, const char* from, handle to_dir, const char* to);
int remove(handle dir, const char* name);
int make_directory(const char* path, unsigned permissions);
ssize_t list_directory(handle dir, char* names, size_t size);
int lock(handle h, lock_kind kind);
int rename_held(handle h, handle to_dir, const char* to);
int remove_held(handle h);

// win32_refused.cpp
int count_extents(handle h, std::uint64_t* count);
std::int64_t seek_region(handle h, std::int64_t offset, region what);
int set_no_copy_on_write(handle h);
int can_link_unnamed(handle h);
int link_unnamed(handle h, handle dir, const char* name);
int async_open(unsigned entries, async_queue** queue);
void async_close(async_queue* queue);
int async_register(async_queue* queue, const io_piece* buffers, unsigned count);
int async_submit(async_queue* queue, handle h, const void* data, unsigned size, std::int64_t offset,
                 int buffer_index, std::uint64_t tag);
int async_complete(async_queue* queue, std::uint64_t* tag, int* result);
int async_drain(async_queue* queue);
int path_facts(const char* path, file_facts* out);
ssize_t read_link(handle h, char* buffer, size_t size);
int on_procfs(handle dir);
int mount_root(handle h);
std::uint32_t effective_user();
int set_owner(handle h, std::uint32_t owner, std::uint32_t group);
int set_mode(handle h, unsigned mode);
ssize_t list_attributes(const char* path, char* names, size_t size);
ssize_t get_attribute(const char* path, const char* name, void* value, size_t size);
int set_attribute(handle h, const char* name, const void* value, size_t size);
int remove_attribute(handle h, const char* name);

// win32_security.cpp
ssize_t read_security(handle h, void* descriptor, size_t size, unsigned* parts);
int set_file_attributes(handle h, std::uint32_t attributes);

}  // namespace sluice::detail::win32
