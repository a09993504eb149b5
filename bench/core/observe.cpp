#include "core/observe.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <sluice/file.hpp>
#include <system_error>
#include <vector>

namespace sluice::bench {
namespace {

// Bytes of the file at `path` resident in the page cache.
std::uint64_t resident_bytes(const char* path) {
  auto f = sluice::file::open(path, {.mode = sluice::open_mode::read_only});
  std::uint64_t size = f.size();
  if (size == 0) return 0;
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, f.native_handle(), 0);
  if (map == MAP_FAILED)
    throw std::system_error(errno, std::generic_category(), "mmap for mincore");
  long page = ::sysconf(_SC_PAGESIZE);
  std::vector<unsigned char> pages((size + page - 1) / page);
  int result = ::mincore(map, size, pages.data());
  int error = errno;
  ::munmap(map, size);
  if (result != 0) throw std::system_error(error, std::generic_category(), "mincore");
  std::uint64_t count = 0;
  for (unsigned char p : pages) count += p & 1;
  return count * static_cast<std::uint64_t>(page);
}

}  // namespace

std::string extents_of(std::initializer_list<const char*> paths) {
  std::string text;
  try {
    for (const char* path : paths) {
      if (!text.empty()) text += " + ";
      text += std::to_string(
          sluice::file::open(path, {.mode = sluice::open_mode::read_only}).extent_count());
    }
  } catch (const std::system_error& e) {
    return "extents unknown: " + e.code().message();
  }
  return text + " extents";
}

std::string cached_of(const char* path) {
  return std::to_string(resident_bytes(path) >> 20) + " MiB cached";
}

}  // namespace sluice::bench
