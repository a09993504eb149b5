// sluice-bench: the rows written in C (peers/c_rows.h) as the C++ scenarios
// call them: a failure becomes the exception that fails the method.
#pragma once

#include <cstring>
#include <stdexcept>
#include <string>

#include "peers/c_rows.h"

namespace sluice::bench {

// Throws std::runtime_error with sluice_last_error()'s message (which
// already names the operation, the path and the errno's text) if `error`
// is not 0.
inline void check_sluice_c(int error) {
  if (error != 0) throw std::runtime_error(sluice_last_error());
}

// Throws std::runtime_error naming `call`, `path` and `error` if `error`
// is not 0.
inline void check_stdio_c(int error, const char* call, const char* path) {
  if (error != 0)
    throw std::runtime_error(std::string(call) + " '" + path + "': " + std::strerror(error));
}

}  // namespace sluice::bench
