// What an open file is, for a tool that reads it: a directory, a regular
// file (with its size) or anything else (a pipe, a terminal, a device),
// asked of the open handle, so that standard input is examined as well as
// a named file. file_kind.cpp (POSIX: fstat) and file_kind_win32.cpp
// (GetFileType, GetFileInformationByHandle). One system call or two.
#pragma once

#include <cstdint>
#include <sluice/file.hpp>
#include <string>

namespace sluice_tools {

struct file_kind {
  enum class type : unsigned char { directory, regular, other } is = type::other;
  std::uint64_t size = 0;  // a regular file's
};

// Throws std::system_error (the OS's error, "stat '<name>'") if the
// handle cannot be examined.
file_kind kind_of(const sluice::file& file, const std::string& name);

}  // namespace sluice_tools
