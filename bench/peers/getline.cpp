#include "peers/getline.hpp"

#include <stdio.h>

namespace sluice::bench {

const char* const getline_missing = nullptr;

std::ptrdiff_t getline_call(char** line, std::size_t* capacity, std::FILE* file) {
  return ::getline(line, capacity, file);
}

}  // namespace sluice::bench
