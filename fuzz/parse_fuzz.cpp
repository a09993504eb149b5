// libFuzzer target: arbitrary bytes as the text of sluice::parse<T>. A
// parse_error (EINVAL or ERANGE, its message one line of printable ASCII
// starting "sluice: parse ") is a fine answer; a crash, any other exception
// or a broken promise traps. A value that parses must print back through
// print's own formatting (shortest, and full precision; integers in the base
// they were read in) and parse again to the same bits (a NaN to a NaN of the
// same sign); a float or double must also be what strtof/strtod make of the
// same text, which they must read whole.
//
// The same text is then split by sluice::fields at ',' and at byte 1 as a
// delimiter (a digit, a letter, '.', '-': one that may be part of a number
// too): each field's next<T>() must give what parse<T> gives for the text
// next() gives at the same place, the same bits or the same refusal, and a
// field asked past the last one must be refused as missing.
//
// Input: byte 0 picks the type (of 12), byte 1 the base for an integer (2..36,
// or the decimal parse<T>(text) for 0, 1 and 37 and up, as byte 1 % 40); the
// rest is the text.
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <sluice/sluice.hpp>
#include <string>
#include <string_view>
#include <type_traits>

#include "same_bits.hpp"

namespace {

using sluice_fuzz::same_bits;

void check(bool promise) {
  if (!promise) __builtin_trap();
}

void check_refusal(const sluice::parse_error& e) {
  int code = e.code().value();
  check(code == EINVAL || code == ERANGE);
  std::string_view what = e.what();
  check(what.starts_with("sluice: parse "));
  for (char c : what) check(c >= 0x20 && c < 0x7f);
}

// parse<T>(text), or parse<T>(text, base) for an integer in another base.
template <class T>
T parse_in(std::string_view text, int base) {
  if constexpr (std::is_floating_point_v<T>)
    return sluice::parse<T>(text);
  else
    return base == 10 ? sluice::parse<T>(text) : sluice::parse<T>(text, base);
}

// `value` printed by `format` (print's own code) parses back to itself.
template <class T, class Format>
void check_reprint(T value, const Format& format, int base) {
  char text[128];  // room for 64 binary digits and a sign
  std::size_t size;
  if constexpr (std::is_floating_point_v<T>)
    size = sluice::detail::format_floating(text, value, format);
  else
    size = sluice::detail::format_integer(text, value, format);
  std::string_view printed(text, size);
  check(same_bits(value, parse_in<T>(printed, base)));
}

// strtod (strtof) reads the whole text to the same value.
template <class T>
void check_against_strtod(T value, std::string_view text) {
  std::string copy(text);
  char* end = nullptr;
  T reference;
  if constexpr (std::is_same_v<T, float>)
    reference = std::strtof(copy.c_str(), &end);
  else
    reference = std::strtod(copy.c_str(), &end);
  check(end == copy.c_str() + copy.size());
  check(std::isnan(value) ? std::isnan(reference) : same_bits(value, reference));
}

// fields::next<T>(), or next<T>(base) for an integer in another base.
template <class T>
T next_in(sluice::fields& row, int base) {
  if constexpr (std::is_floating_point_v<T>)
    return row.next<T>();
  else
    return base == 10 ? row.next<T>() : row.next<T>(base);
}

// What parse_in or next_in made of a text: a value, or a refusal's code and message.
template <class T>
struct outcome {
  T value{};
  int code = 0;
  std::string message;
};

template <class T, class Read>
outcome<T> outcome_of(Read&& read) {
  outcome<T> result;
  try {
    result.value = read();
  } catch (const sluice::parse_error& e) {
    check_refusal(e);
    result.code = e.code().value();
    result.message = e.what();
  }
  return result;
}

// Each field of `text` split at `delimiter` reads as parse<T> reads it.
template <class T>
void fuzz_fields(std::string_view text, int base, char delimiter) {
  sluice::fields by_view(text, delimiter);
  sluice::fields by_number(text, delimiter);
  while (auto field = by_view.next()) {
    auto expected = outcome_of<T>([&] { return parse_in<T>(*field, base); });
    auto got = outcome_of<T>([&] { return next_in<T>(by_number, base); });
    check(got.code == expected.code && got.message == expected.message);
    check(got.code != 0 || same_bits(got.value, expected.value));
    check(by_number.rest() == by_view.rest() && by_number.done() == by_view.done());
  }
  auto missing = outcome_of<T>([&] { return next_in<T>(by_number, base); });
  check(missing.code == EINVAL &&
        missing.message.find("missing: the line has") != std::string::npos);
}

// The text as a T; `base` 2..36 picks parse<T>(text, base) for an integer,
// any other parse<T>(text).
template <class T>
void fuzz(std::string_view text, int base, char delimiter) {
  if (base < 2 || base > 36) base = 10;
  fuzz_fields<T>(text, base, ',');
  fuzz_fields<T>(text, base, delimiter);
  T value;
  try {
    value = parse_in<T>(text, base);
  } catch (const sluice::parse_error& e) {
    check_refusal(e);
    return;
  }
  if constexpr (std::is_floating_point_v<T>) {
    check_reprint(value, sluice::shortest, 10);
    check_reprint(value, sluice::scientific(std::numeric_limits<T>::max_digits10 - 1), 10);
    check_against_strtod(value, text);
  } else {
    check_reprint(value, sluice::int_format{base}, base);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  std::string_view text(reinterpret_cast<const char*>(data + 2), size - 2);
  int base = data[1] % 40;
  auto delimiter = static_cast<char>(data[1]);
  switch (data[0] % 12) {
    case 0: fuzz<signed char>(text, base, delimiter); break;
    case 1: fuzz<unsigned char>(text, base, delimiter); break;
    case 2: fuzz<short>(text, base, delimiter); break;
    case 3: fuzz<unsigned short>(text, base, delimiter); break;
    case 4: fuzz<int>(text, base, delimiter); break;
    case 5: fuzz<unsigned>(text, base, delimiter); break;
    case 6: fuzz<long>(text, base, delimiter); break;
    case 7: fuzz<unsigned long>(text, base, delimiter); break;
    case 8: fuzz<long long>(text, base, delimiter); break;
    case 9: fuzz<unsigned long long>(text, base, delimiter); break;
    case 10: fuzz<float>(text, base, delimiter); break;
    default: fuzz<double>(text, base, delimiter); break;
  }
  return 0;
}
