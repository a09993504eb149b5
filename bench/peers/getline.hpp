// sluice-bench: POSIX's getline(3), for the lines scenario's row, where the
// C library has it (getline.cpp); Windows' has not (getline_win32.cpp).
#pragma once

#include <cstddef>
#include <cstdio>

namespace sluice::bench {

// nullptr where getline(3) exists; else why its row is not run.
extern const char* const getline_missing;

// getline(line, capacity, file): the length of the line read with its
// '\n', or -1 at the end or on an error (ferror tells). Where
// getline_missing is set, throws std::system_error (ENOSYS).
std::ptrdiff_t getline_call(char** line, std::size_t* capacity, std::FILE* file);

}  // namespace sluice::bench
