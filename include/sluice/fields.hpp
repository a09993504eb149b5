// sluice/fields.hpp - sluice::fields, one line's fields split at a
// delimiter, as views or as numbers read in place.
//
//   sluice::fields row("42,0.5,,-7", ',');
//   auto id = row.next<std::int64_t>();   // 42
//   auto x = row.next<double>();          // 0.5
//   auto note = row.next();               // "" (an empty field)
//   auto n = row.next<std::int32_t>();    // -7
//   row.done();                           // true: no field is left
//   row.next<int>();
//     // throws parse_error, code() EINVAL:
//     // sluice: parse int32 "": missing: the line has 4 fields
//
//   for (std::string_view field : sluice::fields("a\tb\tc", '\t')) use(field);
//
// reader::read_fields(delimiter) gives the next line of a file as fields
// whose errors say where the bad field is in that file:
//   sluice::reader in("points.csv");
//   while (auto row = in.read_fields(',')) {
//     auto id = row->next<std::int64_t>();
//     auto x = row->next<double>();
//   }
//     // sluice: parse double "0.5x" in 'points.csv' at line 7, offset 161: expected ...
// Rows of numbers alone read faster with reader::read_number<T>(','), which
// reads each field in place without first finding the line's end (see
// <sluice/reader.hpp>).
//
// Splitting: a line of n delimiters has n + 1 fields, each the bytes
// between two delimiters (or the line's start or end): "" is one empty
// field, "a," is "a" and "", ",a" is "" and "a", "a,,b" has an empty field
// between "a" and "b". Nothing else is special: no quotes, no escapes, no
// spaces trimmed, and a '\r' before the line's end stays in the last field
// (read the file with line_end::crlf to drop it). Fields are views into the
// line, never copies: valid as long as the line is (for read_fields, until
// the reader's next call that is not tell()).
//
// Numbers: next<T>() reads the next field as parse<T> (<sluice/parse.hpp>)
// reads a text: the whole field must be the number, every integer type and
// float and double, exact, locale-free, and what writer::print writes reads
// back to the same bits. A bad field throws parse_error as parse<T> would,
// for that field's text; located when the line came from a reader (path,
// line number, the field's offset in the file). After a refusal the cursor
// is past the bad field.
//
// Cost: next<T>() is std::from_chars at the field, inline, stopping at the
// delimiter: each byte of a number field is read once. next() is a memchr
// for the delimiter. A delimiter that can be part of a number (a digit, a
// letter, '.', '+', '-', '_', '(' or ')') costs a memchr before each
// number too, so that the field is exactly what next() would give. No
// allocation, no system call; only a refusal allocates (its message).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <optional>
#include <string_view>

#include "sluice/parse.hpp"

namespace sluice {

class fields {
 public:
  class iterator;

  // The fields of `line`, split at `delimiter`. Errors are not located.
  explicit fields(std::string_view line, char delimiter = ',') noexcept
      : fields(line, delimiter, {}, 0, 0) {}

  // The same, for a line read from `path` as line `line_number` (from 1)
  // starting at `line_offset` in the file: each error names the path, the
  // line and its field's offset (line_offset plus its place in the line).
  // `path` must outlive the fields.
  fields(std::string_view line, char delimiter, std::string_view path, std::uint64_t line_number,
         std::uint64_t line_offset) noexcept
      : at_(line.data() != nullptr ? line.data() : ""),
        end_(at_ + line.size()),
        start_(at_),
        delimiter_(delimiter),
        plain_(!may_be_in_a_number(delimiter)),
        path_(path),
        line_(line_number),
        offset_(line_offset) {}

  // The next field, as a view into the line; nothing once every field was
  // taken.
  std::optional<std::string_view> next() noexcept {
    if (at_ == nullptr) return std::nullopt;
    const char* first = at_;
    auto size = static_cast<std::size_t>(end_ - first);
    const auto* delimiter = static_cast<const char*>(std::memchr(first, delimiter_, size));
    step_past(delimiter != nullptr ? delimiter : end_);
    return std::string_view(first, delimiter != nullptr ? delimiter : end_);
  }

  // The next field as a T (every integer type, float, double; see the top).
  // Throws parse_error: EINVAL for a field that is not a number of this kind
  // or a missing one (every field was taken), ERANGE for one out of T's
  // range.
  template <detail::text_number T>
  T next() {
    return next_in<T>(10);
  }

  // The next field as an integer in `base` (2..36), as parse<T>(text, base)
  // reads it. Throws parse_error as above, std::invalid_argument for a base
  // outside 2..36.
  template <detail::text_integer T>
  T next(int base) {
    if (base < 2 || base > 36) detail::refuse_base(base);
    return next_in<T>(base);
  }

  // True once every field was taken (never for a line not yet split: even
  // an empty line has a field).
  bool done() const noexcept { return at_ == nullptr; }

  // What is left of the line: the fields not yet taken, delimiters
  // included; empty once done() (and before an empty last field).
  std::string_view rest() const noexcept {
    return at_ != nullptr ? std::string_view(at_, end_) : std::string_view();
  }

  // Fields taken so far.
  std::size_t count() const noexcept { return taken_; }

  // The fields not yet taken, for range-for; each step takes one.
  iterator begin() noexcept;
  std::default_sentinel_t end() const noexcept { return {}; }

  // True if `c` can be part of a number's text (a digit, a letter, '.',
  // '+', '-', '_', '(' or ')'): such a delimiter is searched for before a
  // number is read, not read past.
  static constexpr bool may_be_in_a_number(char c) noexcept {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' ||
           c == '+' || c == '-' || c == '_' || c == '(' || c == ')';
  }

 private:
  // Moves past the field that ends at `last` (a delimiter or the end).
  void step_past(const char* last) noexcept {
    at_ = last != end_ ? last + 1 : nullptr;
    ++taken_;
  }

  // std::from_chars at the field, which must stop at its end; anything
  // else (a '+', "-0" unsigned, a bad or missing field, a delimiter that
  // may be in a number) out of line.
  template <detail::text_number T>
  T next_in(int base) {
    T value;
    if (plain_ && at_ != nullptr) [[likely]] {
      auto result = detail::from_chars_of(at_, end_, value, base);
      if (result.ec == std::errc{} && (result.ptr == end_ || *result.ptr == delimiter_))
          [[likely]] {
        step_past(result.ptr);
        return value;
      }
    }
    next_slow(value, base);
    return value;
  }

  template <detail::text_number T>
  void next_slow(T& value, int base);

  const char* at_;     // the next field's first byte; null once done
  const char* end_;    // the line's end
  const char* start_;  // the line's first byte, at offset_ in the file
  char delimiter_;
  bool plain_;  // the delimiter is no part of any number
  std::size_t taken_ = 0;
  std::string_view path_;
  std::uint64_t line_;    // 0: not located
  std::uint64_t offset_;  // of start_
};

namespace detail {

// A field's text as a T (parse_into), its parse_error located as `origin`
// says, with the field's offset: origin.offset + (field.data() - start).
// Defined for each text_number in src/text/fields.cpp.
struct text_origin {
  std::string_view path;
  std::uint64_t line = 0;  // 0: not located
  std::uint64_t offset = 0;
  const char* start = nullptr;
};
template <text_number T>
void parse_field(std::string_view field, T& value, int base, const text_origin& origin);

// The parse_error of a field asked of a line whose `count` fields were all
// taken, located at the line's end.
template <text_number T>
[[noreturn]] void refuse_missing(std::size_t count, const text_origin& origin,
                                 const char* line_end);

}  // namespace detail

template <detail::text_number T>
void fields::next_slow(T& value, int base) {
  detail::text_origin origin{path_, line_, offset_, start_};
  if (at_ == nullptr) detail::refuse_missing<T>(taken_, origin, end_);
  detail::parse_field(*next(), value, base, origin);
}

// fields::begin(): an input iterator over the fields not yet taken.
class fields::iterator {
 public:
  using value_type = std::string_view;
  using difference_type = std::ptrdiff_t;
  iterator() = default;
  explicit iterator(fields* source) noexcept : source_(source) { ++*this; }
  std::string_view operator*() const noexcept { return field_; }
  iterator& operator++() noexcept {
    if (auto next = source_->next())
      field_ = *next;
    else
      source_ = nullptr;
    return *this;
  }
  void operator++(int) noexcept { ++*this; }
  bool operator==(std::default_sentinel_t) const noexcept { return source_ == nullptr; }

 private:
  fields* source_ = nullptr;
  std::string_view field_;
};

inline fields::iterator fields::begin() noexcept { return iterator(this); }

}  // namespace sluice
