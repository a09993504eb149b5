// The sluice tools: where a conversion's output goes, a file or standard
// output.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace sluice {
class writer;
}

namespace sluice_tools {

// True for the names -o gives standard output by: "" (no -o), "-",
// "/dev/stdout", "/dev/fd/1" and "/proc/self/fd/1", spelt exactly so.
bool names_standard_output(std::string_view path) noexcept;

// Refuses, before any work, an output that cannot or must not be replaced
// by a file: `output` naming an existing file that is not a regular one
// (a FIFO, a device, a directory: the message says to give -o - and
// redirect standard output there), or naming the input file itself, by
// any path or link (`input`, or standard input for "-" where /dev/stdin
// shows it), which the conversion would replace with its own result.
// Nothing for the names of standard output, or a path that does not exist
// yet. A stat or two (std::filesystem::status, equivalent). Throws
// std::invalid_argument saying which and why.
void check_output(const std::string& output, const std::string& input);

// Makes a write past the file size limit (ulimit -f, RLIMIT_FSIZE) fail
// with EFBIG, which the tool reports and after which it removes its
// temporary, rather than kill the process with SIGXFSZ. Call once, at the
// start of main. No effect where there is no SIGXFSZ (Windows).
void ignore_file_size_signal() noexcept;

// Calls `write` with a writer on `path` and closes it. A file is written to
// a temporary beside it and renamed over `path` only by the close, once
// complete (atomic replace, durably: the temporary and the directory are
// synced): if `write` or the close throws, `path` is left as it was.
// Standard output (a pipe, a terminal or a file, named as above, never
// replaced) is written as `write` goes, through a writer on the borrowed
// descriptor 1, which stays open: a failure midway leaves there what was
// flushed before it. Throws what `write` throws, or std::system_error
// naming the path ("standard output" for descriptor 1) for I/O.
void write_output(const std::string& path, const std::function<void(sluice::writer&)>& write);

}  // namespace sluice_tools
