#include <cerrno>
#include <system_error>

#include "peers/getline.hpp"

namespace sluice::bench {

const char* const getline_missing = "the Windows C runtime has no getline(3)";

std::ptrdiff_t getline_call(char**, std::size_t*, std::FILE*) {
  throw std::system_error(ENOSYS, std::generic_category(), getline_missing);
}

}  // namespace sluice::bench
