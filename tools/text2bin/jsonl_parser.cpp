#include "text2bin/jsonl_parser.hpp"

#include <cstring>
#include <string>
#include <vector>

#include "text2bin/json_text.hpp"
#include "text2bin/text_error.hpp"

namespace text2bin {
namespace {

using json::cursor;

bool is_integer(sluice_tools::field_type type) noexcept {
  return type != sluice_tools::field_type::f32 && type != sluice_tools::field_type::f64;
}

// Whether c could go on a JSON number (so that a number read up to it is not
// the whole one).
bool continues_number(char c) noexcept {
  return json::is_digit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
}

// Whether [first, end), a number std::from_chars read whole, is one in
// JSON's grammar: no '-' without a digit after it ("-inf"), no leading 0
// before another digit, and in a float's text (`point` true) no '.'
// without a digit after it ("1.", "1.e5").
bool json_number(const char* first, const char* end, bool point) noexcept {
  const char* digits = first + (*first == '-');
  if (digits == end || !json::is_digit(*digits)) return false;
  if (*digits == '0' && digits + 1 != end && json::is_digit(digits[1])) return false;
  if (point)
    for (const char* p = digits; p != end; ++p)
      if (*p == '.') return p + 1 != end && json::is_digit(p[1]);
  return true;
}

// Reads the records of one piece, a line at a time: what a parse call
// needs for itself (which fields a record has had, a record being made,
// decoded text), so that the parser stays const and shared.
class record_reader {
 public:
  explicit record_reader(const record_encoder& encoder)
      : encoder_(encoder),
        fields_(encoder.layout().fields),
        seen_in_(encoder.field_count(), 0),
        record_(encoder.record_size()) {
    for (std::size_t field = 0; field < fields_.size(); ++field) {
      readers_.push_back(encoder.prefix_encoder(field));
      keys_.push_back((field == 0 ? "{\"" : ",\"") + fields_[field].name + "\":");
    }
  }

  // Reads the line [in.p, in.end) as line() does, trying first the form
  // sluice-bin2text writes ({"id":7,"x":0.25}: the keys in the schema's
  // order, no spaces, numbers), which takes a comparison per key.
  void any_line(cursor in, std::vector<unsigned char>& out) {
    if (!compact_line(in.p, in.end)) return line(in, out);
    out.insert(out.end(), record_.begin(), record_.end());
  }

  // Reads the line [in.p, in.end): nothing if it is blank, else one record,
  // appended to `out`.
  void line(cursor in, std::vector<unsigned char>& out) {
    json::skip_space(in);
    if (in.done()) return;
    if (*in.p != '{') json::refuse(in, "'{' to start a record");
    ++in.p;
    ++record_number_;
    next_field_ = 0;
    read_members(in);
    ++in.p;  // the '}'
    json::skip_space(in);
    if (!in.done()) json::refuse(in, "the line end after the record");
    out.insert(out.end(), record_.begin(), record_.end());
  }

 private:
  // True, with the record made, if [p, end) is a record in the compact form
  // any_line() tries, each number plain JSON, and a '\r' at most after it.
  // False, having read no more than that, for anything else.
  bool compact_line(const char* p, const char* end) {
    for (std::size_t field = 0; field < keys_.size(); ++field) {
      const std::string& key = keys_[field];
      if (static_cast<std::size_t>(end - p) <= key.size() ||
          std::memcmp(p, key.data(), key.size()) != 0)
        return false;
      p += key.size();
      const char* number_end = readers_[field](p, end, record_.data());
      if (!number_end || (number_end != end && continues_number(*number_end)) ||
          !json_number(p, number_end, !is_integer(fields_[field].type)))
        return false;
      p = number_end;
    }
    if (p == end || *p++ != '}') return false;
    return p == end || (*p == '\r' && p + 1 == end);
  }

  // The members after '{', up to the closing '}' (in.p is left on it).
  void read_members(cursor& in) {
    json::skip_space(in);
    std::size_t count = 0;
    if (in.done() || *in.p != '}') {
      for (;;) {
        if (in.done() || *in.p != '"')
          json::refuse(in, count == 0 ? "'\"' to start a key or '}'" : "'\"' to start a key");
        std::size_t field = read_key(in);
        read_value(in, field);
        ++count;
        json::skip_space(in);
        if (!in.done() && *in.p == ',') {
          ++in.p;
          json::skip_space(in);
          continue;
        }
        if (!in.done() && *in.p == '}') break;
        json::refuse(in, "',' or '}' after " + encoder_.describe(field));
      }
    }
    if (count < fields_.size()) refuse_missing(in);
  }

  // The key at in.p and the ':' after it; returns its field.
  std::size_t read_key(cursor& in) {
    const char* first = in.p;
    std::size_t field = next_field_;
    if (!at_key(in, field)) {
      std::string_view key = json::read_key(in, scratch_);
      field = encoder_.find(key);
    }
    std::size_t at = static_cast<std::size_t>(first - in.base);
    if (field == record_encoder::npos)
      throw text_error(
          at, "unexpected key " + json::quoted_key(first, in.p) + ": the schema has no such field");
    if (seen_in_[field] == record_number_)
      throw text_error(at, "key " + json::quoted_key(first, in.p) + " twice in a record");
    seen_in_[field] = record_number_;
    next_field_ = field + 1;
    const char* after = in.p;
    json::skip_space(in);
    if (in.done() || *in.p != ':')
      json::refuse(in, "':' after key " + json::quoted_key(first, after));
    ++in.p;
    json::skip_space(in);
    return field;
  }

  // True, with in.p moved past it, if the key at in.p is `field`'s name as
  // written, without escapes: the common case, checked inline.
  bool at_key(cursor& in, std::size_t field) const noexcept {
    if (field == fields_.size()) return false;
    const std::string& name = fields_[field].name;
    if (static_cast<std::size_t>(in.end - in.p) < name.size() + 2) return false;
    const char* p = in.p + 1;
    for (char c : name)
      if (*p++ != c) return false;
    if (*p != '"') return false;
    in.p = p + 1;
    return true;
  }

  // The value at in.p, stored in `field` of the record: a number read
  // whole by std::from_chars, where it is plain JSON, or as read_any_value
  // reads it (and refuses it, saying why).
  void read_value(cursor& in, std::size_t field) {
    if (!in.done() && (*in.p == '-' || json::is_digit(*in.p))) {
      const char* end = readers_[field](in.p, in.end, record_.data());
      if (end && (end == in.end || !continues_number(*end)) &&
          json_number(in.p, end, !is_integer(fields_[field].type))) {
        in.p = end;
        return;
      }
    }
    read_any_value(in, field);
  }

  // The value at in.p, stored in `field` of the record.
  void read_any_value(cursor& in, std::size_t field) {
    const char* first = in.p;
    std::size_t at = in.at();
    if (!in.done() && (*in.p == '-' || json::is_digit(*in.p))) {
      bool plain = json::skip_number(in);
      std::string_view number(first, static_cast<std::size_t>(in.p - first));
      if (plain || !is_integer(fields_[field].type))
        return encoder_.encode(field, number, at, record_.data());
      return store_integer(field, number, at);
    }
    if (in.end - in.p >= 4 && std::memcmp(in.p, "null", 4) == 0) {
      encoder_.encode_nan(field, at, record_.data());
      in.p += 4;
      return;
    }
    std::string message = "expected a number for " + encoder_.describe(field);
    throw text_error(at, message.append(", found ").append(json::found_value(in)));
  }

  // A number with a fraction or exponent, for an integer field: stored if
  // its value is a whole number in the field's range.
  void store_integer(std::size_t field, std::string_view number, std::size_t at) {
    json::integer_text digits = json::as_integer(number, scratch_);
    if (digits.kind == json::integer_text::not_whole) {
      std::string message = "expected an integer for " + encoder_.describe(field);
      throw text_error(at,
                       message.append(", found ").append(number).append(", not a whole number"));
    }
    if (digits.kind == json::integer_text::exact) {
      try {
        return encoder_.encode(field, digits.text, at, record_.data());
      } catch (const text_error&) {  // out of range: named as written
      }
    }
    std::string message = encoder_.describe(field) + " out of range: \"";
    throw text_error(at, message.append(number).append("\""));
  }

  [[noreturn]] void refuse_missing(const cursor& in) const {
    std::size_t field = 0;
    while (seen_in_[field] == record_number_) ++field;
    throw text_error(in.at(), "missing " + encoder_.describe(field) +
                                  ": expected every field of the schema, found '}'");
  }

  const record_encoder& encoder_;
  const std::vector<sluice_tools::field>& fields_;
  std::vector<std::size_t> seen_in_;  // the record number a field was last seen in
  std::size_t record_number_ = 0;
  std::size_t next_field_ = 0;  // the field expected next: the one after the last key's
  std::vector<unsigned char> record_;
  std::vector<field_prefix_encoder> readers_;  // field i's fast reader
  std::vector<std::string> keys_;  // what comes before field i's value in the compact form
  std::string scratch_;
};

class jsonl_parser final : public format_parser {
 public:
  explicit jsonl_parser(const record_encoder& encoder) : encoder_(encoder) {}

  std::optional<std::size_t> read_head(std::string_view, bool) override { return 0; }

  std::size_t whole_records(std::string_view text, bool at_end) const override {
    if (at_end) return text.size();
    std::size_t last = text.rfind('\n');  // a line or so from the end: few bytes read
    return last == std::string_view::npos ? 0 : last + 1;
  }

  void parse(std::string_view piece, bool, std::vector<unsigned char>& out) const override {
    record_reader reader(encoder_);
    const char* p = piece.data();
    const char* end = p + piece.size();
    while (p != end) {
      const void* newline = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
      const char* line_end = newline ? static_cast<const char*>(newline) : end;
      reader.any_line(cursor{piece.data(), p, line_end}, out);
      p = newline ? line_end + 1 : end;
    }
  }

 private:
  const record_encoder& encoder_;
};

}  // namespace

std::unique_ptr<format_parser> make_jsonl_parser(const job&, const record_encoder& encoder) {
  return std::make_unique<jsonl_parser>(encoder);
}

}  // namespace text2bin
