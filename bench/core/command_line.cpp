#include "core/command_line.hpp"

#include <string_view>

namespace sluice::bench {
namespace {

// Characters no POSIX shell treats specially in a word.
bool plain(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("-_./=:,+@%").find(c) != std::string_view::npos;
}

std::string quoted(std::string_view arg) {
  bool needs_quotes = arg.empty();
  for (char c : arg) needs_quotes = needs_quotes || !plain(c);
  if (!needs_quotes) return std::string(arg);
  std::string text = "'";
  for (char c : arg) text += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return text + "'";
}

}  // namespace

std::string command_line(int argc, const char* const* argv) {
  std::string text;
  for (int i = 0; i < argc; ++i) {
    if (i > 0) text += ' ';
    text += quoted(argv[i]);
  }
  return text;
}

}  // namespace sluice::bench
