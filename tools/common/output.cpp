#include "common/output.hpp"

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <iterator>
#include <sluice/file.hpp>
#include <sluice/writer.hpp>
#include <stdexcept>
#include <string>
#include <system_error>

#include "common/standard_streams.hpp"

namespace sluice_tools {
namespace {

// Names for standard output in -o: written as it goes, never replaced.
constexpr std::string_view stdout_names[] = {"", "-", "/dev/stdout", "/dev/fd/1",
                                             "/proc/self/fd/1"};

// What a file of type `t` is called in a message.
std::string type_name(std::filesystem::file_type t) {
  switch (t) {
    case std::filesystem::file_type::directory: return "a directory";
    case std::filesystem::file_type::fifo: return "a FIFO";
    case std::filesystem::file_type::character: return "a character device";
    case std::filesystem::file_type::block: return "a block device";
    case std::filesystem::file_type::socket: return "a socket";
    default: return "not a regular file";
  }
}

// Whether `a` and `b` are one existing file (false if either is missing
// or cannot be examined).
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b) {
  std::error_code error;
  return std::filesystem::equivalent(a, b, error) && !error;
}

}  // namespace

void check_output(const std::string& output, const std::string& input) {
  if (names_standard_output(output)) return;
  std::error_code error;
  std::filesystem::file_status status = std::filesystem::status(output, error);
  if (error || !std::filesystem::exists(status)) return;  // a new file; the writer says the rest
  if (!std::filesystem::is_regular_file(status))
    throw std::invalid_argument(
        "the output '" + output + "' is " + type_name(status.type()) +
        ": a file output is written beside it and renamed over it once complete, which needs a "
        "regular file; to write into it as the conversion goes, give -o - and redirect standard "
        "output to it");
  bool from_standard_input = input == "-" || input.empty();
  if (same_file(output, from_standard_input ? "/dev/stdin" : input))
    throw std::invalid_argument("the output '" + output + "' is the input" +
                                (from_standard_input ? " (standard input)" : "") +
                                ": the conversion would replace what it reads; give another -o");
}

bool names_standard_output(std::string_view path) noexcept {
  return std::find(std::begin(stdout_names), std::end(stdout_names), path) !=
         std::end(stdout_names);
}

void ignore_file_size_signal() noexcept {
#ifdef SIGXFSZ
  std::signal(SIGXFSZ, SIG_IGN);
#endif
}

void write_output(const std::string& path, const std::function<void(sluice::writer&)>& write) {
  if (!names_standard_output(path)) {
    sluice::writer out(path, {.atomic_replace = true});
    write(out);
    return out.close();  // the rename
  }
  // A pipe, a terminal or a file alike; close() leaves descriptor 1 open.
  sluice::writer out(borrow_standard_output());
  write(out);
  out.close();
}

}  // namespace sluice_tools
