// sluice::parse<T> (see <sluice/parse.hpp>): std::from_chars over the whole
// text, a leading '+' allowed, and parse_error saying why a text is refused.
#include "sluice/parse.hpp"

#include <cerrno>
#include <charconv>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "text/parse_messages.hpp"

namespace sluice {
namespace {

template <class T>
[[noreturn]] void refuse(std::string_view text, int errno_value, int base) {
  std::string reason = "out of range";
  if (errno_value == EINVAL) {
    if constexpr (std::is_floating_point_v<T>)
      reason = "expected a decimal number, inf or nan";
    else
      reason = base == 10 ? "expected a decimal integer"
                          : "expected an integer in base " + std::to_string(base);
  }
  throw parse_error(errno_value, detail::type_name<T>(), text, reason);
}

// The errno for text [first, last) that is not a whole number of T: ERANGE
// for a number out of range, EINVAL for anything else. For an unsigned T
// and a text "-<digits>", which from_chars refuses as malformed: 0 with
// value = 0 for "-0" (a zero), ERANGE for any other such number.
template <class T>
int failure_of(const char* first, const char* last, std::from_chars_result result, T& value,
               int base) {
  if (result.ptr == last && result.ec == std::errc::result_out_of_range) return ERANGE;
  if constexpr (std::is_unsigned_v<T>) {
    if (first != last && *first == '-') {
      auto magnitude = detail::from_chars_of(first + 1, last, value, base);
      if (magnitude.ptr != last || first + 1 == last) return EINVAL;
      if (magnitude.ec == std::errc{} && value == 0) return 0;
      return ERANGE;
    }
  }
  return EINVAL;
}

template <class T>
void parse_number(std::string_view text, T& value, int base) {
  if (base < 2 || base > 36) detail::refuse_base(base);
  const char* first = text.data();
  const char* last = first + text.size();
  if (first != last && *first == '+') {
    ++first;  // a '+' sign, which from_chars does not take; a second sign is malformed
    if (first != last && (*first == '-' || *first == '+')) refuse<T>(text, EINVAL, base);
  }
  T parsed{};
  auto result = detail::from_chars_of(first, last, parsed, base);
  if (result.ec == std::errc{} && result.ptr == last) {
    value = parsed;
    return;
  }
  int error = failure_of(first, last, result, parsed, base);
  if (error != 0) refuse<T>(text, error, base);
  value = parsed;
}

}  // namespace

parse_error::parse_error(int errno_value, std::string_view type, std::string_view text,
                         std::string_view reason)
    : parse_error(
          errno_value,
          parts{std::string(type), detail::quote(text), std::string(reason), {}, 0, 0, {}}) {}

parse_error::parse_error(int errno_value, parts what)
    : std::system_error(errno_value, std::generic_category()) {
  what.message = "sluice: parse " + what.type + ' ' + what.quoted;
  if (!what.path.empty()) what.message += " in '" + what.path + '\'';
  if (what.line != 0)
    what.message +=
        " at line " + std::to_string(what.line) + ", offset " + std::to_string(what.offset);
  what.message += ": " + what.reason;
  parts_ = std::make_shared<const parts>(std::move(what));
}

parse_error parse_error::located(std::string_view path, std::uint64_t line,
                                 std::uint64_t offset) const {
  return parse_error(code().value(),
                     parts{type(), quoted_text(), reason(), std::string(path), line, offset, {}});
}

namespace detail {

std::string quote(std::string_view text) {
  // Texts longer than this are cut in messages, to their first cut_to bytes.
  constexpr std::size_t longest_quoted = 64;
  constexpr std::size_t cut_to = 48;
  static constexpr char hex_digits[] = "0123456789abcdef";
  bool cut = text.size() > longest_quoted;
  std::string out = "\"";
  for (char c : cut ? text.substr(0, cut_to) : text) {
    auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20 || byte >= 0x7f) {
      out += "\\x";
      out += hex_digits[byte >> 4];
      out += hex_digits[byte & 15];
    } else {
      out += c;
    }
  }
  if (cut) return out + "...\" (" + std::to_string(text.size()) + " bytes)";
  return out + '"';
}

void refuse_base(int base) {
  throw std::invalid_argument("sluice: parse: base " + std::to_string(base) + " is not 2..36");
}

void parse_into(std::string_view text, signed char& value, int base) {
  parse_number(text, value, base);
}
void parse_into(std::string_view text, unsigned char& value, int base) {
  parse_number(text, value, base);
}
void parse_into(std::string_view text, short& value, int base) { parse_number(text, value, base); }
void parse_into(std::string_view text, unsigned short& value, int base) {
  parse_number(text, value, base);
}
void parse_into(std::string_view text, int& value, int base) { parse_number(text, value, base); }
void parse_into(std::string_view text, unsigned& value, int base) {
  parse_number(text, value, base);
}
void parse_into(std::string_view text, long& value, int base) { parse_number(text, value, base); }
void parse_into(std::string_view text, unsigned long& value, int base) {
  parse_number(text, value, base);
}
void parse_into(std::string_view text, long long& value, int base) {
  parse_number(text, value, base);
}
void parse_into(std::string_view text, unsigned long long& value, int base) {
  parse_number(text, value, base);
}
void parse_into(std::string_view text, float& value, int base) { parse_number(text, value, base); }
void parse_into(std::string_view text, double& value, int base) { parse_number(text, value, base); }

}  // namespace detail
}  // namespace sluice
