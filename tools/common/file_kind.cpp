// kind_of on POSIX: one fstat.
#include "common/file_kind.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <system_error>

namespace sluice_tools {

file_kind kind_of(const sluice::file& file, const std::string& name) {
  struct stat st {};
  if (::fstat(file.native_handle(), &st) != 0)
    throw std::system_error(errno, std::generic_category(), "stat '" + name + "'");
  if (S_ISDIR(st.st_mode)) return {file_kind::type::directory};
  if (!S_ISREG(st.st_mode)) return {};
  return {file_kind::type::regular, static_cast<std::uint64_t>(st.st_size)};
}

}  // namespace sluice_tools
