#include "core/page_cache.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <sluice/file.hpp>
#include <span>
#include <string>
#include <system_error>
#include <vector>

namespace sluice::bench {
namespace {

sluice::file open_to_read(const char* path) {
  return sluice::file::open(path, {.mode = sluice::open_mode::read_only});
}

[[noreturn]] void fail(int error, const std::string& what, const char* path) {
  throw std::system_error(error, std::generic_category(), what + " '" + path + "'");
}

}  // namespace

const char* const page_cache_missing = nullptr;

std::uint64_t cached_bytes(const char* path) {
  sluice::file f = open_to_read(path);
  std::uint64_t size = f.size();
  if (size == 0) return 0;
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, f.native_handle(), 0);
  if (map == MAP_FAILED) fail(errno, "mmap for mincore", path);
  long page = ::sysconf(_SC_PAGESIZE);
  std::vector<unsigned char> pages((size + page - 1) / page);
  int result = ::mincore(map, size, pages.data());
  int error = errno;
  ::munmap(map, size);
  if (result != 0) fail(error, "mincore", path);
  std::uint64_t count = 0;
  for (unsigned char p : pages) count += p & 1;
  return count * static_cast<std::uint64_t>(page);
}

void drop_from_page_cache(const char* path) {
  sluice::file f = open_to_read(path);
  f.sync_data();
  int error = ::posix_fadvise(f.native_handle(), 0, 0, POSIX_FADV_DONTNEED);
  if (error != 0) fail(error, "posix_fadvise(POSIX_FADV_DONTNEED)", path);
  f.close();
}

void load_into_page_cache(const char* path) {
  sluice::file f = open_to_read(path);
  std::vector<std::byte> chunk(1024 * 1024);
  std::uint64_t size = f.size();
  for (std::uint64_t at = 0; at < size; at += chunk.size())
    f.read_at(std::span(chunk).first(std::min<std::uint64_t>(chunk.size(), size - at)), at);
  f.close();
}

}  // namespace sluice::bench
