// sluice-text2bin: a field's text into its bytes in a packed record.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/schema.hpp"

namespace text2bin {

// Reads the number at `first` with std::from_chars, up to the first byte
// that cannot continue it, stores it into its field of `record` as
// record_encoder::encode() would store the text up to there, and returns
// that byte's address. Returns nullptr, storing nothing, where
// std::from_chars refuses the text (a '+', "-0" for an unsigned type, no
// number, a number out of range): encode() on the whole value then
// decides, and says why. Never reads past `last`; no allocation. Cost: one
// indirect call and the from_chars, for a parser's inner loop.
class field_prefix_encoder {
 public:
  using read_function = const char* (*)(const char* first, const char* last,
                                        unsigned char* at) noexcept;

  field_prefix_encoder(read_function read, std::size_t offset) noexcept
      : read_(read), offset_(offset) {}

  const char* operator()(const char* first, const char* last,
                         unsigned char* record) const noexcept {
    return read_(first, last, record + offset_);
  }

 private:
  read_function read_;
  std::size_t offset_;
};

// Stores field values given as text into records of the layout --schema
// gives, in the records' byte order. Every format's parser uses it, so that
// a number means the same whatever the format it came in. Const and
// stateless once made: parsers on several threads share one.
class record_encoder {
 public:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  record_encoder(sluice_tools::schema layout, bool big_endian);

  const sluice_tools::schema& layout() const noexcept { return layout_; }
  std::size_t record_size() const noexcept { return layout_.record_size; }
  std::size_t field_count() const noexcept { return layout_.fields.size(); }

  // The index of the field called `name`, or npos. A linear search: call it
  // for a header or a key's first sight, not per value where avoidable.
  std::size_t find(std::string_view name) const noexcept;

  // Writes the value `text` holds into field `field` of `record` (which has
  // record_size() bytes). The text is the whole value, nothing around it:
  // what sluice::parse<T> reads (<sluice/parse.hpp>), exactly: integers in
  // decimal, floats in any decimal form, "inf", "-inf", "nan" in any case.
  // Costs a std::from_chars and a store. Throws text_error at `at` (where
  // the text starts in the parser's input):
  //   expected a decimal integer for field 'id' (i32), found "12x"
  //   field 'id' (i32) out of range: "3000000000"
  void encode(std::size_t field, std::string_view text, std::size_t at,
              unsigned char* record) const;

  // The fast path for a value that other text follows, for field `field`
  // (its type, byte order and offset chosen here, once): see
  // field_prefix_encoder below.
  field_prefix_encoder prefix_encoder(std::size_t field) const noexcept;

  // Writes the quiet NaN into field `field`, a float or a double (JSON's
  // null, which is how sluice-bin2text writes a NaN there). Throws
  // text_error at `at` for an integer field: expected a number for field ...
  void encode_nan(std::size_t field, std::size_t at, unsigned char* record) const;

  // "field 'id' (i32)", as errors name a field.
  std::string describe(std::size_t field) const;

 private:
  sluice_tools::schema layout_;
  bool big_endian_;
};

}  // namespace text2bin
