// The work directory on Windows: named like the POSIX one, made with
// CreateDirectory semantics (std::filesystem::create_directory) under a
// random name, removed with std::filesystem::remove_all (which removes a
// symbolic link, never what it points at). SIGINT, SIGBREAK and SIGTERM
// remove it too: Windows runs a console's Ctrl+C handler on a thread of its
// own, not inside the interrupted code, so the handler may call what it
// needs; a file the interrupted run still holds open may stay (Windows
// removes no open file without delete sharing). settle() does nothing: flushing a whole volume takes an
// administrator's handle to it.
#include <array>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <system_error>

#include "core/work_dir.hpp"

namespace sluice::bench {
namespace {

struct paths {
  std::filesystem::path dir;
  std::string output, companion, reference, input;
};
paths removal;

constexpr std::array<int, 3> cleanup_signals = {SIGINT, SIGBREAK, SIGTERM};
std::array<void (*)(int), cleanup_signals.size()> previous_handlers;

void remove_quietly(const std::filesystem::path& path) noexcept {
  std::error_code ignored;
  std::filesystem::remove_all(path, ignored);
}

extern "C" void on_signal(int signal_number) {
  remove_quietly(removal.dir);
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

// "sluice-bench-" and six random letters and digits, as mkdtemp makes.
std::string random_name() {
  constexpr char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::random_device source;
  std::uniform_int_distribution<std::size_t> pick(0, sizeof letters - 2);
  std::string name = "sluice-bench-";
  for (int i = 0; i < 6; ++i) name += letters[pick(source)];
  return name;
}

}  // namespace

work_dir::work_dir(const std::filesystem::path& parent) {
  std::error_code error;
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::filesystem::path dir = parent / random_name();
    if (std::filesystem::create_directory(dir, error)) {
      removal.dir = dir;
      break;
    }
    if (error) break;  // not a name taken: the parent cannot hold it
  }
  if (removal.dir.empty())
    throw std::system_error(error ? error : std::make_error_code(std::errc::file_exists),
                            "cannot create a directory in '" + parent.string() + "'");
  path_ = removal.dir.string();
  removal.output = path_ + "/output";
  removal.companion = path_ + "/companion";
  removal.reference = path_ + "/reference";
  removal.input = path_ + "/input";
  for (std::size_t i = 0; i < cleanup_signals.size(); ++i)
    previous_handlers[i] = std::signal(cleanup_signals[i], on_signal);
}

work_dir::~work_dir() {
  std::error_code error;
  std::filesystem::remove_all(removal.dir, error);
  if (error)
    std::fprintf(stderr, "sluice-bench: could not remove '%s' and all in it: %s\n", path_.c_str(),
                 error.message().c_str());
  for (std::size_t i = 0; i < cleanup_signals.size(); ++i)
    std::signal(cleanup_signals[i], previous_handlers[i]);
}

const char* work_dir::output() const noexcept { return removal.output.c_str(); }
const char* work_dir::companion() const noexcept { return removal.companion.c_str(); }
const char* work_dir::reference() const noexcept { return removal.reference.c_str(); }
const char* work_dir::input() const noexcept { return removal.input.c_str(); }

void work_dir::remove_output() const noexcept {
  remove_quietly(removal.output);
  remove_quietly(removal.companion);
}

void work_dir::settle() const noexcept {}

// %TEMP% (GetTempPathW), as std::filesystem::temp_directory_path finds it.
std::filesystem::path default_parent() {
  std::error_code error;
  std::filesystem::path temp = std::filesystem::temp_directory_path(error);
  return error ? std::filesystem::path(".") : temp;
}

}  // namespace sluice::bench
